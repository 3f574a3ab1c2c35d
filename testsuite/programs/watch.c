/* A global written and read a known number of times, and a local whose
   watchpoint must end with its scope.  */
#include <stdio.h>

int counter;

static int read_counter(void)
{
    return counter;
}

static int scoped(int start)
{
    int local = start;
    local += 1;
    local *= 3;
    return local;
}

int main(void)
{
    counter = 1;
    counter = 2;
    int seen = read_counter();
    counter = seen + 10;
    int s = scoped(counter);
    printf("counter=%d scoped=%d\n", counter, s);
    return 0;
}
