# p $_siginfo after a SIGSEGV at a known address.
# program: segv
# expect: ^Program received signal SIGSEGV, Segmentation fault\.$
# expect: ^\$1 = 11$
# expect: ^\$2 = 1$
# expect: ^\$3 = \(void \*\) 0x10$
# expect: ^Program terminated with signal SIGSEGV, Segmentation fault\.\nThe program no longer exists\.$
# expect: ^Child terminated with signal = 0xb \(SIGSEGV\)$
# expect: ^about to fault$
target remote @TARGET@
continue
print $_siginfo.si_signo
print $_siginfo.si_code
print $_siginfo._sifields._sigfault.si_addr
print $_siginfo
continue
