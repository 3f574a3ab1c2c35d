/* fork: the child runs the traced code after the fork (over the
   parent's traps, had they not been removed) and must exit cleanly.  */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int __attribute__((noinline)) work(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += i % 7 == 0 ? i : 1;
	return s;
}

int __attribute__((noinline)) run(int n)
{
	int status = -1, s = work(n);
	pid_t child = fork();

	if (!child)
		_exit(work(n) == s ? 3 : 4);
	waitpid(child, &status, 0);
	return s + (WIFEXITED(status) ? WEXITSTATUS(status) : 99);
}

int main(void)
{
	printf("%d\n", run(50));
	return 0;
}
