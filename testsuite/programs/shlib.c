/* Calls back from libc (qsort) and into libm, so a backtrace from the
   callback goes through a shared library.  */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int values[] = { 5, 3, 9, 1, 7 };
    qsort(values, 5, sizeof values[0], compare_ints);
    volatile double arg = argc + 1.0;
    double root = sqrt(arg) + cos(arg);
    printf("first=%d last=%d root=%.3f\n", values[0], values[4], root);
    return 0;
}
