/* Syscalls in a loop, raw and through libc, and a vDSO call (time()
   reads without a retry loop, so runs are alike).  */
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int __attribute__((noinline)) run(int n)
{
	int fd = open("/dev/null", O_WRONLY), sum = 0;

	for (int i = 0; i < n; i++) {
		sum += getppid() > 0;
		sum += (int) write(fd, "x", 1);
		sum += syscall(SYS_getpid) > 0;
		sum += time(NULL) > 0;
	}
	close(fd);
	return sum;
}

int main(void)
{
	printf("%d\n", run(10));
	return 0;
}
