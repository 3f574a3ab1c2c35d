/* Signals and faults with handlers: raise (a signal at syscall exit),
   SIGSEGV and SIGFPE (faults, left by siglongjmp), the program's own
   int3, ud2, and a signal sent by another process into sigsuspend.  */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile int hits;

static void on_signal(int sig)
{
	hits += sig;
}

static void on_fault(int sig)
{
	hits += 100 * sig;
	siglongjmp(env, sig);
}

static int __attribute__((noinline)) divide(volatile int a, volatile int b)
{
	return a / b;
}

int __attribute__((noinline)) run(void)
{
	volatile int *null = NULL;
	sigset_t block, empty;
	pid_t child;

	raise(SIGUSR1);
	if (!sigsetjmp(env, 1))
		hits += *null;
	if (!sigsetjmp(env, 1))
		hits += divide(1, 0);
	__asm__ volatile("int3");
	if (!sigsetjmp(env, 1))
		__asm__ volatile("ud2");

	sigemptyset(&block);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, NULL);
	child = fork();
	if (!child) {
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	sigemptyset(&empty);
	sigsuspend(&empty);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	waitpid(child, NULL, 0);
	return hits;
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);
	sa.sa_handler = on_fault;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	printf("%d\n", run());
	return 0;
}
