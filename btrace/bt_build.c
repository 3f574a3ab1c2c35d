/* The build driver: a bundle's trace through its decoder (PT or BTS)
   into the segment builder, then the builder's finishing passes.  It
   alone knows both sides, so the decoders call the builder and nothing
   calls back.  */
#include "btrace/bt_decode.h"
#include "btrace/bt_ftrace.h"

int bt_ftrace_build(struct bt_ftrace **pft, const struct bt_bundle *bundle,
		    const struct bt_image *image, struct bt_diag *diag)
{
	return bt_ftrace_build_progress(pft, bundle, image, diag, NULL, NULL);
}

int bt_ftrace_build_progress(struct bt_ftrace **pft,
			     const struct bt_bundle *bundle,
			     const struct bt_image *image, struct bt_diag *diag,
			     bt_progress_fn *progress, void *ctx)
{
	return bt_ftrace_build_piped(pft, bundle, image, diag, progress, ctx,
				     &bt_pt_pipe_default);
}

int bt_ftrace_build_piped(struct bt_ftrace **pft,
			  const struct bt_bundle *bundle,
			  const struct bt_image *image, struct bt_diag *diag,
			  bt_progress_fn *progress, void *ctx,
			  const struct bt_pt_pipe *pipe)
{
	struct bt_ftrace *ft;
	int errcode;

	if (!pft || !bundle || !image)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	ft = bt_ftrace_alloc(bundle->format, image, progress, ctx);
	if (!ft)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");

	switch (bundle->format) {
	case btf_pt:
		errcode = bt_pt_decode_piped(ft, bundle, diag, pipe);
		break;
	case btf_bts:
		errcode = bt_bts_decode(ft, bundle, diag);
		break;
	default:
		errcode = bt_diag_set(diag, bte_unsupported, 0, 0,
				      "unknown trace format %d",
				      (int) bundle->format);
		break;
	}
	if (errcode >= 0)
		errcode = bt_ftrace_finish(ft, diag);
	if (errcode < 0) {
		bt_ftrace_free(ft);
		return errcode;
	}
	*pft = ft;
	return 0;
}
