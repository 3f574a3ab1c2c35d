# What GDB reads from the target besides registers and memory: the auxv,
# the process's mappings and files (over vFile), then kill in remote mode.
# program: plain_nopie
# expect: ^33\s+AT_SYSINFO_EHDR\s+System-supplied DSO's ELF header\s+<addr\d+>$
# expect: ^9\s+AT_ENTRY\s+Entry point of program\s+0x40[0-9a-f]{4}$
# expect: ^31\s+AT_EXECFN\s+File name of executable\s+<addr\d+> "@BIN@/plain_nopie"$
# expect: ^\s+0x400000\s+0x401000\s+0x1000\s+0x0\s+r--p\s+@BIN@/plain_nopie$
# expect: ^\s+<addr\d+>\s+<addr\d+>\s+0x\w+\s+0x0\s+rw-p\s+\[stack\]$
# expect: ^\[Inferior 1 \(process <pid1>\) killed\]$
target remote @TARGET@
break compute
continue
info auxv
info proc mappings
info proc cmdline
print $_exitcode
kill
