"""Comparing two normalized transcripts, and checking one against the
scenario's own assertions."""

import difflib

# GDB says this when a command in a -x script fails and skips the rest.
SCRIPT_ERROR = "Error in sourced command file"


def set_aside(lines, expected_differences):
    """Drop lines an expected-difference covers; count them per reason."""
    kept, counts = [], {}
    for line in lines:
        for d in expected_differences:
            if d.regex.search(line):
                counts[d.reason] = counts.get(d.reason, 0) + 1
                break
        else:
            kept.append(line)
    return kept, counts


def compare(reference, candidate, expected_differences, names):
    """Returns (same, report lines).  NAMES labels the two sides."""
    ref, ref_counts = set_aside(reference.split("\n"), expected_differences)
    cand, cand_counts = set_aside(candidate.split("\n"), expected_differences)
    report = []
    for d in expected_differences:
        a, b = ref_counts.get(d.reason, 0), cand_counts.get(d.reason, 0)
        if a or b:
            report.append(f"expected difference ({d.reason}): set aside "
                          f"{a} line(s) of {names[0]}, {b} of {names[1]}")
    diff = list(difflib.unified_diff(ref, cand, names[0], names[1],
                                     lineterm="", n=3))
    return not diff, report + diff


def check_assertions(scenario, transcript, gdb_ran, gdb_status):
    """Problems (strings) with one transcript; empty if all is well."""
    problems = []
    if gdb_ran and gdb_status is None:
        problems.append(f"GDB did not finish within {scenario.timeout:g} s "
                        "and was killed")
    elif gdb_ran and gdb_status != 0:
        problems.append(f"GDB exited with status {gdb_status}")
    if SCRIPT_ERROR in transcript and not scenario.allow_error:
        problems.append("GDB reported an error and skipped the rest of the "
                        "script (\"" + SCRIPT_ERROR + "\")")
    for regex in scenario.expect:
        if not regex.search(transcript):
            problems.append(f"expected but missing: /{regex.pattern}/")
    for regex in scenario.expect_not:
        m = regex.search(transcript)
        if m:
            problems.append(f"present but forbidden: /{regex.pattern}/ "
                            f"matched {m.group(0)!r}")
    return problems
