/* leader_exit.sh's inferior: the thread-group leader ends (pthread_exit)
   while a second thread lives; that thread stops at `hit`, then execs
   this program again, which prints "exec'd" and exits 0.  A traced
   leader that has exited is a zombie the kernel reports only with its
   process's last thread.  */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_t leader;
static char *self;

void __attribute__((noinline)) hit(void)
{
	__asm__ volatile("" ::: "memory");
}

static void *second(void *arg)
{
	pthread_join(leader, NULL);
	hit();
	execl(self, self, "again", (char *) NULL);
	perror("execl");
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1 && !strcmp(argv[1], "again")) {
		puts("exec'd");
		return 0;
	}
	self = argv[0];
	leader = pthread_self();
	pthread_create(&t, NULL, second, NULL);
	pthread_exit(NULL);
}
