/* The traced program of the btrace corpus: main calls f twice, f calls g.
   Synthetic traces follow its real control flow; the markers name lines
   for the tests' expectations.  Unoptimized whatever CFLAGS say, so
   that there are no branches but calls and returns.  */
#pragma GCC optimize("O0")

int g(int x)
{                      /* L:g_open */
	return x + 1;  /* L:g_body */
}                      /* L:g_close */

int f(int x)
{                      /* L:f_open */
	return g(x) * 2;  /* L:f_body */
}                      /* L:f_close */

int main(void)
{                      /* L:main_open */
	int r = f(1);  /* L:main_call1 */

	r += f(2);     /* L:main_call2 */
	return r == 0; /* L:main_ret */
}                      /* L:main_close */
