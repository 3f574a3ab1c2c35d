# monitor commands gdbserver shares with ptstub answer in its words (GDB's
# server-mon.exp and no-thread-db.exp read them).
# program: plain
# expect: ^Debug output disabled\.$
# expect: ^Protocol debug output disabled\.$
# expect: ^All extra debug format options disabled\.$
# expect: ^libthread-db-search-path set to `/nonexistent'$
target remote @TARGET@
monitor set debug 0
monitor set remote-debug 0
monitor set debug-format none
monitor set libthread-db-search-path /nonexistent
continue
