# Wire-level differential test: packets, malformed ones among them, sent
# to gdbserver and to ptstub; the normalized replies must match, and the
# intended differences are listed with their reasons in packets.txt.
TESTS += testsuite/wire/packet_diff.py
EXTRA_DIST += testsuite/wire/packet_diff.py testsuite/wire/packets.txt \
	testsuite/wire/peers.py

# The command line the same way: bad arguments, programs that cannot be
# started, a port in use.
TESTS += testsuite/wire/cli_diff.py
EXTRA_DIST += testsuite/wire/cli_diff.py
