/* A loop around a raw syscall instruction, for stepi/nexti over it.  */
#include <sys/syscall.h>

static long raw_write(int fd, const char *buf, long len)
{
    long ret;
    /* Inline so the syscall instruction is in this program's code. */
    __asm__ volatile ("syscall" : "=a" (ret)
                      : "a" ((long) SYS_write), "D" ((long) fd), "S" (buf),
                        "d" (len)
                      : "rcx", "r11", "memory");
    return ret;
}

int main(void)
{
    long total = 0;
    for (int i = 0; i < 3; i++)
        total += raw_write(1, "tick\n", 5);
    return total == 15 ? 0 : 1;
}
