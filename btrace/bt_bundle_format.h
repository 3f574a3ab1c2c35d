/* The trace bundle's on-disk layout, shared by writer and reader.

   All integers are little-endian.  A bundle is a 32-byte header followed
   by records, each 8-byte aligned:

     header:  0 magic "PTBTRACE"     8 u16 version   10 u16 header size
             12 u32 flags (0)       16 u64 total size of the bundle
             24 u32 record count    28 u32 CRC-32 of bytes [0,28) and
                                           [32,total)
     record:  0 u32 type   4 u32 payload length   8 payload, zero padding

   Record payloads (exactly one format, thread and trace record; any number
   of mappings and pages):
     format   u32 format, u32 vendor, u16 family, u8 model, u8 stepping,
              u32 buffer size                                   (16 bytes)
     thread   i32 pid, i32 tid, u32 flags (bit 0: pc valid), u32 0, u64 pc
                                                                (24 bytes)
     trace    the raw trace (BTS: u64 begin, u64 end pairs, newest first)
     mapping  u64 address, u64 size, u64 file offset, u32 prot,
              u16 build-id size, u16 path size, build-id, path (no NUL)
     pages    u64 address, u64 size, u32 prot, u16 name size, u16 0,
              name (no NUL), SIZE bytes of memory

   Version 2 bundles hold several threads: one or more thread records,
   each followed by its trace record; the thread record grows by a u64
   count of what was lost (32 bytes).  They add, each at most once unless
   said otherwise:
     trigger  u32 kind, i32 tid, i32 signal, u32 sequence, u64 address,
              u16 name size, u16 0, u32 0, name                (32 + name)
     process  i32 pid, u32 path size, the program's path       (8 + path)
     regs     i32 tid, i32 signal, u32 size, u32 0, SIZE bytes of the
              thread's registers (any number: the core)        (16 + size)
     memory   as pages: the core's writable and anonymous memory (any
              number)
     auxv     the auxiliary vector as the kernel gives it
     sideband u32 kind, i32 tid, u64 address, u64 size, u64 offset,
              u32 prot, u16 build-id size, u16 path size, build-id, path
              (any number, in the order they happened)         (40 + ...)
     ended    u64 budget, u32 threads dropped, u32 0, u64 bytes dropped:
              the recorder keeps threads that ended before the snapshot
              (thread flag bit 1) within BUDGET bytes of trace, dropping
              the oldest first                                  (24 bytes)
   Version 3 adds, at most once:
     time     u64 zero, u32 mult, u16 shift, u16 0: what turns the TSC
              packets of the traces into nanoseconds, as perf does
              (ptbundle.h, struct bt_time)                      (16 bytes)  */
#ifndef BT_BUNDLE_FORMAT_H
#define BT_BUNDLE_FORMAT_H

#define BT_BUNDLE_MAGIC "PTBTRACE"
#define BT_BUNDLE_MAGIC_SIZE 8
#define BT_BUNDLE_HEADER_SIZE 32
#define BT_BUNDLE_CRC_OFFSET 28
#define BT_RECORD_HEADER_SIZE 8

enum bt_record_type {
	btr_format = 1,
	btr_thread = 2,
	btr_trace = 3,
	btr_mapping = 4,
	btr_pages = 5,
	/* Version 2.  */
	btr_trigger = 6,
	btr_process = 7,
	btr_regs = 8,
	btr_memory = 9,
	btr_auxv = 10,
	btr_sideband = 11,
	btr_ended = 12,
	/* Version 3.  */
	btr_time = 13,
	btr_last = btr_time,
};

#define BT_FORMAT_PAYLOAD_SIZE 16
#define BT_THREAD_PAYLOAD_SIZE 24
#define BT_MAPPING_FIXED_SIZE 32
#define BT_PAGES_FIXED_SIZE 24
#define BT_THREAD_HAS_PC 1u
#define BT_THREAD_ENDED 2u
#define BT_THREAD2_PAYLOAD_SIZE 32
#define BT_TRIGGER_FIXED_SIZE 32
#define BT_PROCESS_FIXED_SIZE 8
#define BT_REGS_FIXED_SIZE 16
#define BT_SIDEBAND_FIXED_SIZE 40
#define BT_ENDED_PAYLOAD_SIZE 24
#define BT_TIME_PAYLOAD_SIZE 16
#define BT_MAX_REGS 65536

/* Sanity limits: a reader rejects anything larger.  */
#define BT_MAX_PATH 4096
#define BT_MAX_NAME 255
#define BT_MAX_BUILD_ID 64

#endif
