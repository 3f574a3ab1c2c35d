/* Code that is gone by the time of the snapshot: libm is dlopen'ed, its
   cos called, and dlclose'd before checkpoint() (--trigger=checkpoint).
   The bundle's side-band keeps libm's mapping, so the trace through cos
   still decodes.  */
#include <dlfcn.h>
#include <stdio.h>

void checkpoint(double value)
{
	(void) value;
}

int main(void)
{
	void *lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
	double (*fn)(double);
	double value;

	if (!lib) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 2;
	}
	fn = (double (*)(double)) dlsym(lib, "cos");
	value = fn ? fn(0.5) : 0;
	dlclose(lib);
	checkpoint(value);
	printf("%.3f\n", value);
	return 0;
}
