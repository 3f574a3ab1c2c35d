# The demo: what a user sees debugging a program through ptstub.
# program: demo
# expect: ^Breakpoint 1, farthest \(pts=
# expect: ^Value returned is \$\d+ = 2$
target remote @TARGET@
break farthest
continue
backtrace
next
next
step
info registers rip
finish
next
print best_d
finish
continue
