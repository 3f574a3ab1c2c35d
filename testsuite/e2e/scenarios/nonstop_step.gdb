# Non-stop (set non-stop on): step and next one thread while the others
# keep running, then past the joins of the others to the end.
# program: threads
# expect: ^48\t}\n  Id\s+Target Id\s+Frame\n\* 1\s+Thread <pid1>\.<pid1> "threads" parked \(\) at @SRC@/testsuite/programs/threads\.c:48\n  2\s+Thread <pid1>\.<pid2> "threads" \(running\)\n  3\s+Thread <pid1>\.<pid3> "threads" \(running\)$
# expect: ^main \(\) at @SRC@/testsuite/programs/threads\.c:64$
# expect: ^67\t        pthread_join\(threads\[i\], NULL\);\n66\t    for .*\n68\t    printf\("joined\\n"\);$
# expect: ^\* 1\s+Thread <pid1>\.<pid1> "threads" main \(\) at @SRC@/testsuite/programs/threads\.c:68\n\[Inferior 1
# expect: ^all threads parked\njoined$
set non-stop on
target remote @TARGET@
break parked
continue
next
info threads
step
next
next
next
next
next
next
info threads
continue
