"""LLDB commands for the LLDB scenarios (command script import):

    stepi-record KEY   single-step the selected thread until its function
                       returns (pc at the caller's return address, stack
                       above where it started) and print the instruction
                       sequence's count and digest as ground truth
    trace-record KEY   the same for the instructions LLDB decodes from the
                       thread's trace (its events skipped, errors counted)
    continue-interrupt SECONDS
                       continue, and after SECONDS interrupt the process
                       as `process interrupt` does; print the state it
                       stopped in and its thread's stop reason
    trace-digest KEY CMD...
                       run an LLDB command and print a digest of what it
                       printed, to compare a live dump with a loaded one

Consecutive repeats of one address are folded: a rep-prefixed string
instruction single-steps once per iteration but is one instruction in
Intel PT."""

import hashlib
import time

import lldb


def _digest(addresses):
    folded = [a for i, a in enumerate(addresses)
              if i == 0 or addresses[i - 1] != a]
    text = ",".join(f"{a:x}" for a in folded)
    return len(folded), hashlib.sha1(text.encode()).hexdigest()[:16]


def stepi_record(debugger, command, result, internal_dict):
    key = command.strip() or "region"
    thread = debugger.GetSelectedTarget().GetProcess().GetSelectedThread()
    ret = thread.GetFrameAtIndex(1).GetPC()
    sp0 = thread.GetFrameAtIndex(0).GetSP()
    pcs = []
    error = lldb.SBError()
    for _ in range(1000000):
        frame = thread.GetFrameAtIndex(0)
        if frame.GetPC() == ret and frame.GetSP() > sp0:
            break
        pcs.append(frame.GetPC())
        thread.StepInstruction(False, error)
        if error.Fail():
            result.AppendMessage(f"stepi failed: {error.GetCString()}")
            return
    count, sha = _digest(pcs)
    result.AppendMessage(f"ground-truth {key}-count = {count}")
    result.AppendMessage(f"ground-truth {key}-sha = {sha}")


def trace_record(debugger, command, result, internal_dict):
    key = command.strip() or "region"
    target = debugger.GetSelectedTarget()
    thread = target.GetProcess().GetSelectedThread()
    error = lldb.SBError()
    cursor = target.GetTrace().CreateNewCursor(error, thread)
    if error.Fail():
        result.AppendMessage(f"trace cursor: {error.GetCString()}")
        return
    cursor.SetForwards(True)
    cursor.Seek(0, lldb.eTraceCursorSeekTypeBeginning)
    pcs, errors = [], 0
    while cursor.HasValue():
        if cursor.IsInstruction():
            pcs.append(cursor.GetLoadAddress())
        elif cursor.IsError():
            errors += 1
        cursor.Next()
    count, sha = _digest(pcs)
    result.AppendMessage(f"trace {key}-count = {count}")
    result.AppendMessage(f"trace {key}-sha = {sha}")
    result.AppendMessage(f"trace {key}-errors = {errors}")


def trace_digest(debugger, command, result, internal_dict):
    key, _, cmd = command.strip().partition(" ")
    out = lldb.SBCommandReturnObject()
    debugger.GetCommandInterpreter().HandleCommand(cmd, out)
    text = (out.GetOutput() or "") + (out.GetError() or "")
    lines = text.splitlines()
    sha = hashlib.sha1(text.encode()).hexdigest()[:16]
    result.AppendMessage(f"digest {key} = {sha} ({len(lines)} lines)")


def continue_interrupt(debugger, command, result, internal_dict):
    seconds = float(command.strip() or "0.5")
    process = debugger.GetSelectedTarget().GetProcess()
    debugger.SetAsync(True)
    try:
        process.Continue()
        time.sleep(seconds)
        running = process.GetState() == lldb.eStateRunning
        process.SendAsyncInterrupt()
        deadline = time.monotonic() + 10
        while (process.GetState() != lldb.eStateStopped and
               time.monotonic() < deadline):
            time.sleep(0.05)
        # LLDB prints the stop on its own thread: let that come first, so
        # that the transcript's order does not depend on the machine.
        time.sleep(0.3)
    finally:
        debugger.SetAsync(False)
    thread = process.GetSelectedThread()
    result.AppendMessage(f"ran {seconds} s: {'running' if running else 'not running'}")
    result.AppendMessage("state: " + debugger.StateAsCString(process.GetState()))
    result.AppendMessage("stop reason: " + thread.GetStopDescription(100))


def __lldb_init_module(debugger, internal_dict):
    for name, func in (("stepi-record", "stepi_record"),
                       ("continue-interrupt", "continue_interrupt"),
                       ("trace-record", "trace_record"),
                       ("trace-digest", "trace_digest")):
        debugger.HandleCommand(
            f"command script add -o -f {__name__}.{func} {name}")
