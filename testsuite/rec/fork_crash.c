/* A fork child that dies of SIGSEGV while its parent waits: with
   --inherit the recorder follows the child and keeps its crash.  */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int child_work(volatile int *p)
{
	return *p;   /* the crash */
}

int main(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0)
		return child_work(NULL);
	waitpid(pid, &status, 0);
	printf("child %s %d\n", WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return 3;
}
