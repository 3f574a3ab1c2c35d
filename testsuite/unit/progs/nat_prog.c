/* The inferior of the native-layer tests: argv[1] picks a behaviour.  */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile int counter;

/* Atomic: the threads of "threads" may run it at the same time.  */
__attribute__((noinline)) void marker(void)
{
	__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
}

static void *thread_body(void *arg)
{
	(void) arg;
	marker();
	return NULL;
}

/* "leader_exit": the second thread outlives the leader.  */
static void *outlive_leader(void *arg)
{
	pthread_join(*(pthread_t *) arg, NULL);
	marker();
	exit(7);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "exit";

	if (!strcmp(mode, "exit"))
		return argc > 2 ? atoi(argv[2]) : 0;
	if (!strcmp(mode, "marker")) {
		marker();
		marker();
		return 0;
	}
	if (!strcmp(mode, "signal")) {
		signal(SIGUSR1, SIG_IGN);
		raise(SIGUSR1);
		return 5;
	}
	if (!strcmp(mode, "threads")) {
		pthread_t t[3];

		for (int i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, thread_body, NULL);
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		return counter;
	}
	if (!strcmp(mode, "leader_exit")) {
		static pthread_t leader, t;

		leader = pthread_self();
		pthread_create(&t, NULL, outlive_leader, &leader);
		pthread_exit(NULL);
	}
	if (!strcmp(mode, "fork")) {
		int status;
		pid_t pid = fork();

		if (pid == 0)
			_exit(9);
		waitpid(pid, &status, 0);
		return WEXITSTATUS(status) + 1;
	}
	if (!strcmp(mode, "exec")) {
		execl(argv[0], argv[0], "exit", "3", (char *) NULL);
		return 1;
	}
	if (!strcmp(mode, "loop")) {
		for (;;)
			counter++;
	}
	return 2;
}
