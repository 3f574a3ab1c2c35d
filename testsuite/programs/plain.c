/* Functions and loops for breakpoints, step/next/finish/until/advance and
   x/i.  Built twice: as a PIE and as a fixed-address executable.  */
#include <stdio.h>
#include <stdlib.h>

static int square(int x)
{
    int result = x * x;
    return result;
}

int compute(int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += square(i);
    return sum;
}

int twice(int v)
{
    return compute(v) * 2;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    int a = compute(n);
    int b = twice(n - 1);
    printf("compute=%d twice=%d\n", a, b);
    return 0;
}
