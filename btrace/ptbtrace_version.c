/* The library's version at run time, which may differ from the header a
   program was compiled with: a program built against one libptbtrace0
   runs with any later one of the same soname.  */
#include "btrace/ptbtrace.h"

const char *ptbtrace_version(void)
{
	return PTBTRACE_VERSION;
}
