/* call_history: print a trace bundle's whole function-call history, as
   GDB's `record function-call-history /c` prints it, through the
   installed libptbtrace.

   Build it against the installed library:

     cc call_history.c $(pkg-config --cflags --libs libptbtrace) \
        -o call_history
     ./call_history trace.ptb

   A bundle comes from ptstub (`monitor btrace save FILE` in GDB, or
   `ptstub record -o FILE -- PROGRAM`).  The output is that of
   `ptbtrace call-history /c 1,N FILE` for the bundle's N segments.  */
#include <ptbtrace.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	struct bt_bundle bundle;
	struct bt_image *image = NULL;
	struct bt_ftrace *ftrace = NULL;
	struct bt_call_range range = { .kind = btcr_between, .begin = 1 };
	struct bt_diag diag;
	int errcode;

	if (argc != 2) {
		fprintf(stderr, "usage: %s BUNDLE\n", argv[0]);
		return 2;
	}
	bt_diag_init(&diag);

	/* The bundle holds the trace and the mapped files' names; the image
	   reads their code and symbols from this machine.  */
	errcode = bt_bundle_load(&bundle, argv[1], &diag);
	if (errcode < 0) {
		bt_diag_print(&diag, argv[1], stderr);
		return 1;
	}
	errcode = bt_image_alloc(&image, &bundle, &diag);
	if (errcode >= 0)
		errcode = bt_ftrace_build(&ftrace, &bundle, image, &diag);
	if (errcode >= 0) {
		range.end = bt_ftrace_nfunctions(ftrace);
		if (range.end > 0)
			errcode = bt_call_history_print(stdout, ftrace, image,
							&range, btcf_indent,
							10, &diag);
	}
	if (errcode < 0)
		bt_diag_print(&diag, argv[1], stderr);

	bt_ftrace_free(ftrace);
	bt_image_free(image);
	bt_bundle_fini(&bundle);
	return errcode < 0 ? 1 : 0;
}
