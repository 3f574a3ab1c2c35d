/* setjmp/longjmp across frames (mangled pointers, an indirect jump).  */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

static void __attribute__((noinline)) deep(int n)
{
	if (n == 0)
		longjmp(env, 42);
	deep(n - 1);
}

int __attribute__((noinline)) run(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++) {
		int r = setjmp(env);

		if (!r)
			deep(i);
		sum += r + i;
	}
	return sum;
}

int main(void)
{
	printf("%d\n", run(5));
	return 0;
}
