# info sharedlibrary before and after the program's libraries load.
# program: shlib
# expect: ^<addr\d+>\s+<addr\d+>\s+Yes\s+target:/lib64/ld-linux-x86-64\.so\.2$
# expect: ^<addr\d+>\s+<addr\d+>\s+Yes\s+target:/lib/x86_64-linux-gnu/libm\.so\.6$
# expect: ^<addr\d+>\s+<addr\d+>\s+Yes\s+target:/lib/x86_64-linux-gnu/libc\.so\.6$
target remote @TARGET@
info sharedlibrary
break main
continue
info sharedlibrary
delete
continue
