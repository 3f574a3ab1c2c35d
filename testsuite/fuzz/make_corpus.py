"""Seed corpora for the fuzz targets from a real GDB session's
`ptstub --remote-debug` log (how testsuite/fuzz/corpus/ was made):

    python3 make_corpus.py LOG OUTDIR [BUNDLE...]

- rsp/: the packets GDB sent, framed as on the wire ($...#cs, acks,
  some with a Ctrl-C), a few dozen per file;
- dispatch/: the same payloads, one per line, a session's worth per file;
- xml/: the btrace and btrace-conf documents the stub sent, reassembled
  from their qXfer chunks;
- pt/: the raw PT trace inside each btrace document, plus a short
  hand-made trace (PSB, PSBEND, TIP.PGE into the target's code page,
  TNTs, TIP.PGD);
- bundle/: the BUNDLE files given (saved with monitor btrace save)."""

import os
import re
import sys

GET = re.compile(r'getpkt: getpkt \("(.*)"\);  \[')
PUT = re.compile(r'putpkt: putpkt \("\$(.*)#[0-9a-f]{2}"\); \[')


def unlog(text):
    """The log writes bytes outside printable ASCII as \\xNN."""
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  text.encode("latin-1"))


def frame(payload):
    return b"$" + payload + b"#%02x" % (sum(payload) & 0xff)


def main():
    log, out = sys.argv[1], sys.argv[2]
    sent, replies = [], []
    last = None
    for line in open(log, encoding="latin-1"):
        m = GET.search(line)
        if m:
            last = unlog(m.group(1))
            sent.append(last)
            continue
        m = PUT.search(line)
        if m and last is not None:
            replies.append((last, unlog(m.group(1))))
    for d in ("rsp", "dispatch", "xml", "pt", "bundle"):
        os.makedirs(os.path.join(out, d), exist_ok=True)

    for i in range(0, len(sent), 40):
        chunk = sent[i:i + 40]
        stream = b"+".join(frame(p) for p in chunk)
        if i % 80 == 0:
            stream += b"\x03" + frame(b"?")
        with open(os.path.join(out, "rsp", "session%03d" % (i // 40)), "wb") as f:
            f.write(stream)
    text = [p for p in sent if b"\n" not in p]
    for i in range(0, len(text), 60):
        with open(os.path.join(out, "dispatch", "session%03d" % (i // 60)),
                  "wb") as f:
            f.write(b"\n".join(text[i:i + 60]))

    # Reassemble qXfer documents: m chunks until an l chunk.
    docs, cur = [], {}
    for req, rep in replies:
        m = re.match(rb"qXfer:(btrace|btrace-conf):read:([^:]*):([0-9a-f]+),",
                     req)
        if not m or not rep or rep[:1] not in (b"m", b"l"):
            continue
        key = m.group(1) + b":" + m.group(2)
        if int(m.group(3), 16) == 0:
            cur[key] = b""
        cur[key] = cur.get(key, b"") + rep[1:]
        if rep[:1] == b"l":
            docs.append(cur.pop(key))
    for n, doc in enumerate(docs):
        with open(os.path.join(out, "xml", "doc%02d" % n), "wb") as f:
            f.write(doc)
        m = re.search(rb"<raw>\s*([0-9a-fA-F\s]*)</raw>", doc)
        if m:
            raw = bytes.fromhex(re.sub(rb"\s", b"", m.group(1)).decode())
            if raw:
                with open(os.path.join(out, "pt", "trace%02d" % n), "wb") as f:
                    f.write(raw)
    psb = b"\x02\x82" * 8
    made = (psb + b"\x02\x23" + b"\x99\x01" + b"\x71" +
            (0x400000).to_bytes(6, "little") + b"\x0a\x06\x0e" +
            b"\x0d" + (0x400014).to_bytes(4, "little") +
            b"\x01" + psb + b"\x02\x23")
    with open(os.path.join(out, "pt", "handmade"), "wb") as f:
        f.write(made)
    for n, path in enumerate(sys.argv[3:]):
        with open(path, "rb") as src, \
                open(os.path.join(out, "bundle", "bundle%02d" % n), "wb") as f:
            f.write(src.read())


if __name__ == "__main__":
    main()
