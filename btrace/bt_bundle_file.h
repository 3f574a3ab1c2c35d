/* The one file writer of trace bundles: bytes put at a path whole or not
   at all.  bt_bundle_write_file (ptbundle.h) is built on it; the stub,
   which encodes a bundle itself to say its size, calls it directly.  It
   is libptbundle's, not exported by libptbtrace (whose ABI is
   ptbundle.h's and ptbtrace.h's functions).  */
#ifndef BT_BUNDLE_FILE_H
#define BT_BUNDLE_FILE_H

#include <stddef.h>

/* Put SIZE bytes of DATA at PATH: written to a new file in PATH's
   directory, synced and renamed over PATH, so that a full disk or a
   crash leaves the old file or none, never half a bundle.  A link to a
   file replaces the file; a device or FIFO (/dev/null) is written in
   place, since a rename would replace it.  0, or -bte_io with errno
   saying why (EISDIR for a directory).  */
int bt_bundle_file_put(const char *path, const void *data, size_t size);

#endif
