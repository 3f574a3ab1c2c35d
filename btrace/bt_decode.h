/* The decoders, PT and BTS, each turning a bundle's trace into blocks
   for the segment builder; the build driver (bt_build.c) picks one.  */
#ifndef BT_DECODE_H
#define BT_DECODE_H

#include "btrace/bt_ftrace.h"

/* How the PT decoder hands blocks to the builder: from a thread of its
   own or not, through NCHUNKS chunks of CHUNK_SIZE records.  */
struct bt_pt_pipe {
	int threaded;
	size_t nchunks, chunk_size;
};

extern const struct bt_pt_pipe bt_pt_pipe_default;

/* The PT decoder (bt_pt_decode.c).  */
int bt_pt_decode_piped(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		       struct bt_diag *diag, const struct bt_pt_pipe *pipe);

/* bt_ftrace_build_progress with PIPE for a PT trace.  */
int bt_ftrace_build_piped(struct bt_ftrace **ftrace,
			  const struct bt_bundle *bundle,
			  const struct bt_image *image, struct bt_diag *diag,
			  bt_progress_fn *progress, void *ctx,
			  const struct bt_pt_pipe *pipe);

/* The BTS decoder (bt_bts_decode.c).  */
int bt_bts_decode(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		  struct bt_diag *diag);

#endif
