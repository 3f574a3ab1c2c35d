// C++ exceptions: throw through frames, catch, rethrow (the unwinder's
// indirect jumps and returns to rewritten frames).
#include <cstdio>
#include <stdexcept>

static int __attribute__((noinline)) thrower(int n)
{
	if (n == 0)
		throw std::runtime_error("zero");
	return thrower(n - 1) + 1;
}

extern "C" int __attribute__((noinline)) run(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++) {
		try {
			try {
				sum += thrower(i % 3);
			} catch (const std::exception &) {
				sum += 10;
				throw;
			}
		} catch (...) {
			sum += 100;
		}
	}
	return sum;
}

int main()
{
	std::printf("%d\n", run(4));
	return 0;
}
