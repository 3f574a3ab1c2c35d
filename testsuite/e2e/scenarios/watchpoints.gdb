# watch, rwatch and awatch on a global (continue to each trigger), and a
# watchpoint on a local that ends with its scope.
# requires: debugregs
# program: watch
# expect: ^Hardware watchpoint 2: counter\n\nOld value = 0\nNew value = 1\n
# expect: ^Hardware watchpoint 2: counter\n\nOld value = 1\nNew value = 2\n
# expect: ^Hardware read watchpoint 3: counter\n\nValue = 2\n
# expect: ^Hardware access \(read/write\) watchpoint 4: counter\n\nValue = 12\n
# expect: ^Hardware watchpoint 6: local\n\nOld value = \d+\nNew value = 12\n
# expect: ^Hardware watchpoint 6: local\n\nOld value = 13\nNew value = 39\n
# expect: ^Watchpoint 6 deleted because the program has left the block in\nwhich its expression is valid\.
# expect: ^counter=12 scoped=39$
target remote @TARGET@
break main
continue
watch counter
continue
continue
delete 2
rwatch counter
continue
delete 3
awatch counter
continue
continue
delete 4
break scoped
continue
watch local
continue
continue
continue
continue
delete
continue
