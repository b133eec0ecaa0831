#!/usr/bin/env python3
"""Issue 33, item 9: the cost of one large stdio frame, measured on the built binaries.

Sends `initialize`, `notifications/initialized` and one `tools/call echo` whose text makes the
frame SIZE MiB to `mcpwire serve` (which echoes it back) or the example server (which answers
-32602: it has no echo tool), then closes stdin, and prints the user CPU time (what to compare
on a loaded machine), the wall time, the peak resident memory (GNU time's "Maximum resident
set size") and the reply bytes.

    python3 scripts/attack/stdio_frame.py --build release --size 60
    python3 scripts/attack/stdio_frame.py --build debug --size 70 --target example

A frame over the profile's limit (64 MiB by default) is answered with one id-less -32600.
Not part of CI: a debug build takes seconds per 60 MiB.
"""

import argparse
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MIB = 1 << 20


def frames(size_mib):
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "stdio_frame", "version": "1"}}}
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    head = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'
    tail = '"}}}'
    pad = size_mib * MIB - len(head) - len(tail)
    return (json.dumps(init) + "\n" + json.dumps(note) + "\n" + head + "x" * pad + tail + "\n").encode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", choices=["serve", "example"], default="serve")
    parser.add_argument("--build", choices=["release", "debug"], default="release")
    parser.add_argument("--size", type=int, default=60, help="the frame's size in MiB")
    parser.add_argument("--no-build", action="store_true",
                        help="run the binary already built (in CARGO_TARGET_DIR or target/)")
    args = parser.parse_args()
    target_dir = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    flags = ["--release"] if args.build == "release" else []
    if args.target == "serve":
        if not args.no_build:
            subprocess.run(["cargo", "build", "-q", "-p", "mcpwire-cli"] + flags, cwd=ROOT,
                           check=True)
        cmd = [os.path.join(target_dir, args.build, "mcpwire"), "serve"]
    else:
        if not args.no_build:
            subprocess.run(["cargo", "build", "-q", "-p", "mcpwire-server", "--example",
                            "mcp_server"] + flags, cwd=ROOT, check=True)
        cmd = [os.path.join(target_dir, args.build, "examples", "mcp_server")]
    with tempfile.TemporaryFile() as data:
        data.write(frames(args.size))
        data.seek(0)
        run = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdin=data, capture_output=True,
                             timeout=300)
    report = run.stderr.decode(errors="replace")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", report)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    user = re.search(r"User time \(seconds\): (\S+)", report)
    lines = run.stdout.split(b"\n")
    last = lines[-2] if len(lines) > 1 else b""
    print("%s %s, a %d MiB frame: user CPU %s s, wall %s, peak RSS %.1f MiB, exit %d, %d reply bytes"
          % (args.target, args.build, args.size, user.group(1) if user else "?", wall.group(1) if wall else "?",
             int(rss.group(1)) / 1024 if rss else -1, run.returncode, len(run.stdout)))
    print("last reply starts: %s" % last[:120].decode(errors="replace"))


if __name__ == "__main__":
    main()
