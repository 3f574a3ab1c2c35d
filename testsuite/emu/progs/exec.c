/* execve from the traced function: tracing goes on in the new image,
   which is this program again, told by its argument to just return.  */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int __attribute__((noinline)) count(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += i & 3;
	return s;
}

int __attribute__((noinline)) run(const char *self)
{
	count(10);
	execl(self, self, "again", (char *) NULL);
	return -1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "again")) {
		printf("%d\n", count(20));
		return 0;
	}
	return run("/proc/self/exe");
}
