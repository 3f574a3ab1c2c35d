/* abort() from a failed assert, at the end of a chain of calls.  */
#include <assert.h>
#include <stdio.h>

static int check(int value)
{
	int doubled = value * 2;
	assert(doubled == 3);
	return doubled;
}

static int compute(int value)
{
	return check(value + 1) + 1;
}

int main(int argc, char **argv)
{
	(void) argv;
	return compute(argc);
}
