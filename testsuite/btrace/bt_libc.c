/* The GDB oracle's libc inferior: between begin_libc and end_libc it
   calls into libc where libc6-dbg's separate debug file has functions
   from assembler sources (memmove, strchr, strcmp, a syscall wrapper),
   the lazy binder (dl-trampoline.h, each call's first), and C with
   inlined headers (setlocale of an unknown locale reads the alias file
   in read_alias_file, printf).  */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char src[4096], dst[4096];
static volatile char probe = 'q';

void __attribute__((noinline)) begin_libc(void)
{
	__asm__ volatile ("");
}

void __attribute__((noinline)) end_libc(void)
{
	__asm__ volatile ("");
}

int main(void)
{
	int n = 0;

	memset(src, 'a', sizeof(src) - 1);
	begin_libc();
	if (!setlocale(LC_ALL, "xx_YY.UTF-8"))
		n += 1;
	memmove(dst, src, sizeof(src));
	n += strchr(dst, probe) != NULL;
	n += strcmp(dst, src) != 0;
	n += getppid() > 0;
	printf("libc %d\n", n);
	end_libc();
	return n == 0;
}
