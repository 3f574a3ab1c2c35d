/* A NULL dereference three calls deep: the recorder's crash bundle must
   let GDB walk back up the chain, and reverse-step to the line before.  */
#include <stdio.h>
#include <stdlib.h>

struct node { int value; struct node *next; };

static int level3(struct node *n)
{
	int before = n ? 1 : 0;
	before += 41;
	return n->next->value + before;   /* the crash */
}

static int level2(struct node *n)
{
	return level3(n) * 2;
}

static int level1(struct node *n)
{
	return level2(n) + 1;
}

int main(int argc, char **argv)
{
	struct node last = { 7, NULL };

	(void) argv;
	printf("chain %d\n", argc);
	fflush(stdout);
	return level1(argc > 5 ? &last : &last) + 1;
}
