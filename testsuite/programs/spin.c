/* Runs until its input ends, for attach: prints its pid, then blocks in
   read(2) on stdin, so an attach always finds it at the same place; each
   byte it reads makes it print a tick, which shows it runs after a
   detach.  */
#include <stdio.h>
#include <unistd.h>

volatile unsigned long ticks;

static int wait_for_byte(void)
{
    char byte;
    return read(0, &byte, 1) == 1;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("pid %d\n", (int) getpid());
    while (wait_for_byte()) {
        ticks++;
        printf("tick %lu\n", ticks);
    }
    return 0;
}
