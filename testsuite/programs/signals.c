/* Raises SIGUSR1 and SIGUSR2 a known number of times; the counts it prints
   show which signals GDB passed to the program.  */
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t usr1_count, usr2_count;

static void on_usr1(int sig)
{
    usr1_count++;
}

static void on_usr2(int sig)
{
    usr2_count++;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGUSR1, on_usr1);
    signal(SIGUSR2, on_usr2);
    for (int i = 0; i < 2; i++) {
        raise(SIGUSR1);
        raise(SIGUSR2);
    }
    printf("usr1=%d usr2=%d\n", (int) usr1_count, (int) usr2_count);
    return 0;
}
