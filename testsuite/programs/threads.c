/* Three threads.  When parked() is reached both workers are blocked in
   read() on a pipe, so the thread list and every backtrace are the same
   on every run.  */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int pipe_fds[2];
static pthread_barrier_t started;
static volatile pid_t worker_tid[2];

static void worker_block(int index)
{
    char byte;
    worker_tid[index] = syscall(SYS_gettid);
    if (read(pipe_fds[0], &byte, 1) != 1)
        perror("read");
}

static void *worker(void *arg)
{
    int index = (int) (long) arg;
    pthread_barrier_wait(&started);
    worker_block(index);
    return NULL;
}

/* True once thread TID sits in read(2) on the pipe (syscall 0, fd arg). */
static int blocked_in_read(pid_t tid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int) tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    char expect[32];
    snprintf(expect, sizeof expect, "0 0x%x ", pipe_fds[0]);
    return ok && strncmp(line, expect, strlen(expect)) == 0;
}

void parked(void)
{
    printf("all threads parked\n");
}

int main(void)
{
    pthread_t threads[2];
    setvbuf(stdout, NULL, _IONBF, 0);
    if (pipe(pipe_fds) != 0)
        return 1;
    pthread_barrier_init(&started, NULL, 3);
    for (long i = 0; i < 2; i++)
        pthread_create(&threads[i], NULL, worker, (void *) i);
    pthread_barrier_wait(&started);
    for (int i = 0; i < 2; i++)
        while (worker_tid[i] == 0 || !blocked_in_read(worker_tid[i]))
            usleep(1000);
    parked();
    if (write(pipe_fds[1], "xy", 2) != 2)
        return 1;
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    printf("joined\n");
    return 0;
}
