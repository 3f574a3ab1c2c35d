"""Ground truth for record btrace: a GDB command that counts the
instructions a thread executes, by single-stepping, from where it stands
to a location.  Sourced by the ground-truth scripts (run against
gdbserver), whose counts the btrace scenarios compare with `info record`.

    count-stepi KEY LOCATION

prints "ground-truth KEY = N".  Each stepi executes one instruction (a
syscall is one), except around a signal (GDB must stop for it): the stepi
that reports the signal ran nothing (the kernel stops for the signal before
returning to user code), nor does the next one, which delivers it: the
kernel stops at the handler's first instruction before running it.  A
rep-prefixed string instruction single-steps once per iteration at the
same IP; it is one instruction in the trace, so its repeats are folded."""

import gdb


class CountStepi(gdb.Command):
    def __init__(self):
        super().__init__("count-stepi", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        key, location = arg.split(None, 1)
        # The address a breakpoint on LOCATION gets (after the prologue,
        # where the btrace scenarios' breakpoints stop the trace).
        bp = gdb.Breakpoint(location, internal=True)
        target = bp.locations[0].address
        bp.delete()
        signalled = []
        listener = lambda ev: signalled.append(
            isinstance(ev, gdb.SignalEvent))
        gdb.events.stop.connect(listener)
        count = 0
        try:
            pc = int(gdb.parse_and_eval("$pc"))
            while pc != target:
                from_signal = bool(signalled) and signalled[-1]
                arch = gdb.selected_frame().architecture()
                rep = arch.disassemble(pc)[0]["asm"].startswith("rep")
                gdb.execute("stepi", to_string=True)
                before, pc = pc, int(gdb.parse_and_eval("$pc"))
                if rep and pc == before:
                    continue
                if not from_signal and not signalled[-1]:
                    count += 1
                if count > 100000:
                    raise gdb.GdbError(f"{location} not reached")
        finally:
            gdb.events.stop.disconnect(listener)
        print(f"ground-truth {key} = {count}")


CountStepi()
