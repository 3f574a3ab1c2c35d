# set record btrace pt/bts buffer-size: GDB asks for a size in bytes, and
# like Linux perf (what gdbserver reports) the ring is a power-of-two
# number of 4 KiB pages, at least one, and btrace-conf says its real size:
# 5000 bytes of PT give 8 KiB, 1000 bytes of BTS and a single byte of PT
# give 4 KiB; 65536 stays 64 KiB.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS)
# expect: ^-- pt 5000\n(.*\n){2}Buffer size: 8kB\.$
# expect: ^-- bts 1000\n(.*\n){2}Buffer size: 4kB\.$
# expect: ^-- pt 1\n(.*\n){2}Buffer size: 4kB\.$
# expect: ^-- pt 65536\n(.*\n){2}Buffer size: 64kB\.$
# expect-not: Could not enable
target remote @TARGET@
break begin_region
continue
set record btrace pt buffer-size 5000
record btrace pt
echo -- pt 5000\n
info record
record stop
set record btrace bts buffer-size 1000
record btrace bts
echo -- bts 1000\n
info record
record stop
set record btrace pt buffer-size 65536
record btrace pt
echo -- pt 65536\n
info record
record stop
set record btrace pt buffer-size 1
python
try:
    gdb.execute("record btrace pt")
except gdb.error as e:
    print(e)
end
echo -- pt 1\n
info record
