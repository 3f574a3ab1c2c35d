/* Writes through a bad pointer: SIGSEGV at a known address.  */
#include <stdio.h>

int *bad_pointer = (int *) 0x10;

int main(void)
{
    printf("about to fault\n");
    fflush(stdout);
    *bad_pointer = 42;
    return 0;
}
