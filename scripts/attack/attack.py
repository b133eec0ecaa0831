#!/usr/bin/env python3
"""Issue 33's attacks on a Streamable HTTP server, from loopback, each bounded in time.

Starts the server (or attaches to one with --url/--pid), then runs every attack for a few
seconds while a well-behaved client calls a tool on a fresh connection every 0.5 s, and prints
per attack what that client saw (the fraction of its calls answered correctly, their p99
latency) and the server's resident memory (peak during the attack, and 1 s after it).

    python3 scripts/attack/attack.py --target example-stateless
    python3 scripts/attack/attack.py --target example-session
    python3 scripts/attack/attack.py --target serve
    python3 scripts/attack/attack.py --target serve --only idle-connections,unread-answers
    python3 scripts/attack/attack.py --target conformance-stateless   # also serve-stateless,
                                                                      # conformance-session

Loopback only: every socket goes to 127.0.0.0/8. Not part of CI (it takes minutes).
"""

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ATTACK_SECONDS = 8.0
CALL_EVERY = 0.5
CALL_TIMEOUT = 3.0
MIB = 1 << 20


class Target:
    """The server under attack and how a well-behaved client talks to it."""

    def __init__(self, name, port, pid, stateless, tool, args, slow):
        self.name, self.port, self.pid = name, port, pid
        self.stateless, self.tool, self.args, self.slow = stateless, tool, args, slow
        self.version = "2026-07-28" if stateless else "2025-11-25"

    def headers(self, method, name=None, session=None, host="127.0.0.1"):
        h = {
            "Host": "%s:%d" % (host, self.port),
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": self.version,
            "Mcp-Method": method,
        }
        if name is not None:
            h["Mcp-Name"] = name
        if session:
            h["Mcp-Session-Id"] = session
        return h

    def params(self, name, arguments, pad=0):
        p = {"name": name, "arguments": arguments}
        meta = {}
        if self.stateless:
            meta = {
                "io.modelcontextprotocol/protocolVersion": self.version,
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        if pad:
            meta["pad"] = "x" * pad
        if meta:
            p["_meta"] = meta
        return p


def request_bytes(headers, body, path="/mcp", method="POST"):
    head = "%s %s HTTP/1.1\r\n" % (method, path)
    for k, v in headers.items():
        head += "%s: %s\r\n" % (k, v)
    head += "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
    return head.encode() + body


def exchange(target, headers, body, timeout=CALL_TIMEOUT, source="127.0.0.1"):
    """One request on a fresh connection: (status, headers dict, body bytes) or None."""
    deadline = time.monotonic() + timeout
    try:
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(timeout)
        s.connect(("127.0.0.1", target.port))
        s.sendall(request_bytes(headers, body))
        raw = b""
        while time.monotonic() < deadline:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = s.recv(65536)
            if not chunk:
                break
            raw += chunk
        s.close()
    except OSError:
        return None
    if b"\r\n\r\n" not in raw:
        return None
    head, rest = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    hdrs = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            hdrs[k.strip().lower()] = v.strip()
    if "chunked" in hdrs.get("transfer-encoding", ""):
        body, rest2 = b"", rest
        while b"\r\n" in rest2:
            size_text, rest2 = rest2.split(b"\r\n", 1)
            size = int(size_text or b"0", 16)
            if size == 0:
                break
            body += rest2[:size]
            rest2 = rest2[size + 2:]
        rest = body
    return status, hdrs, rest


def last_message(hdrs, body):
    """The reply in a JSON body or the last event of an SSE body."""
    if hdrs.get("content-type", "").startswith("text/event-stream"):
        datas = [l[6:] for l in body.decode("utf-8", "replace").splitlines() if l.startswith("data: ")]
        return json.loads(datas[-1]) if datas else None
    try:
        return json.loads(body)
    except ValueError:
        return None


def initialize(target, source="127.0.0.1", timeout=CALL_TIMEOUT):
    """A session id (session mode), after initialize and notifications/initialized."""
    body = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": target.version, "capabilities": {},
        "clientInfo": {"name": "attack", "version": "1"}}}).encode()
    got = exchange(target, target.headers("initialize"), body, timeout, source)
    if not got or got[0] != 200:
        return None
    session = got[1].get("mcp-session-id")
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
    exchange(target, target.headers("notifications/initialized", session=session), note, timeout, source)
    return session


class GoodClient(threading.Thread):
    """Calls the tool every CALL_EVERY s on a fresh connection until stopped."""

    def __init__(self, target):
        super().__init__(daemon=True)
        self.target, self.stop, self.results = target, threading.Event(), []
        self.session = None
        self.misses = []  # what each call not answered correctly got instead

    def run(self):
        t, n = self.target, 0
        while not self.stop.is_set():
            n += 1
            started = time.monotonic()
            ok, why = False, "no session"
            if not t.stateless and self.session is None:
                self.session = initialize(t)
            if t.stateless or self.session:
                body = json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                   "params": t.params(t.tool, t.args)}).encode()
                got = exchange(t, t.headers("tools/call", t.tool, self.session), body)
                if got and got[0] == 404 and not t.stateless:
                    self.session = None  # evicted or expired: initialize again
                why = "no answer (closed or timed out)" if not got else "status %d" % got[0]
                if got and got[0] == 200:
                    reply = last_message(got[1], got[2])
                    ok = bool(reply) and reply.get("id") == n and "result" in reply \
                        and not reply["result"].get("isError")
                    why = "200 with %s" % json.dumps(reply)[:100]
            self.results.append((ok, time.monotonic() - started))
            if not ok:
                self.misses.append(why)
            self.stop.wait(max(0.0, CALL_EVERY - (time.monotonic() - started)))


def rss_mib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


# ---------------------------------------------------------------- attacks
# Each takes (target, stop_event) and returns within ATTACK_SECONDS + a few seconds; sockets
# it opens are closed when it returns.

def sockets_until(stop, count, make, pace=0.0):
    held = []
    try:
        for _ in range(count):
            if stop.is_set():
                break
            try:
                held.append(make())
            except OSError:
                time.sleep(0.01)
            if pace:
                time.sleep(pace)
        stop.wait()
    finally:
        for s in held:
            try:
                s.close()
            except OSError:
                pass


def connect(target, source="127.0.0.1", timeout=2.0):
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", target.port))
    return s


def attack_idle_connections(t, stop):
    """1,000 connections that send nothing (item 4)."""
    sockets_until(stop, 1000, lambda: connect(t))


def attack_slowloris(t, stop):
    """300 connections sending a request head one byte every 0.5 s (item 4)."""
    held = []
    for _ in range(300):
        try:
            s = connect(t)
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(s)
        except OSError:
            pass
    while not stop.wait(0.5):
        for s in list(held):
            try:
                s.send(b"X")
            except OSError:
                held.remove(s)
    for s in held:
        s.close()


def attack_declared_bodies(t, stop):
    """64 requests declaring a 4 MiB body and sending none of it, reconnecting (item 2)."""
    def make():
        s = connect(t)
        h = t.headers("tools/call", t.tool)
        head = "POST /mcp HTTP/1.1\r\n" + "".join("%s: %s\r\n" % kv for kv in h.items())
        s.sendall((head + "Content-Length: %d\r\n\r\n" % (4 * MIB)).encode())
        return s
    sockets_until(stop, 64, make)


def slow_call_body(t, n, pad):
    if t.slow:
        params = t.params(t.slow, {"n": 1000000000}, pad=pad)
    else:
        params = t.params(t.tool, {"text": "x" * pad})
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params}).encode()


def hung_up_calls(t, stop, count, pad):
    """`count` long calls, each padded by `pad` bytes and hung up once written."""
    session = None if t.stateless else initialize(t)
    for n in range(count):
        if stop.is_set():
            break
        try:
            s = connect(t)
            s.sendall(request_bytes(t.headers("tools/call", t.slow or t.tool, session),
                                    slow_call_body(t, n, pad)))
            s.close()
        except OSError:
            pass
    stop.wait()


def attack_padded_long_calls(t, stop):
    """16 long calls padded to ~4 MiB, then hung up (item 1)."""
    hung_up_calls(t, stop, 16, 4 * MIB - 4096)


def attack_hung_up_calls(t, stop):
    """2,000 long calls, each hung up at once (item 3)."""
    hung_up_calls(t, stop, 2000, 0)


def attack_long_calls_one_client(t, stop):
    """256 long calls held open from one address (item 4: the per-client share)."""
    session = None if t.stateless else initialize(t)

    def make():
        s = connect(t)
        s.sendall(request_bytes(t.headers("tools/call", t.slow or t.tool, session),
                                slow_call_body(t, 1, 0)))
        return s
    sockets_until(stop, 256, make)


def big_answer_request(t, n, session):
    # An unknown tool's name is echoed in its error: a ~3 MiB name makes a ~3 MiB answer.
    name = "n" * (3 * MIB)
    body = json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                       "params": t.params(name, {})}).encode()
    return request_bytes(t.headers("tools/call", None, session), body)


def attack_unread_answers(t, stop):
    """60 requests for ~3 MiB answers that are never read (item 5)."""
    session = None if t.stateless else initialize(t)

    def make():
        s = connect(t)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(big_answer_request(t, 1, session))
        return s
    sockets_until(stop, 60, make)


def attack_trickle_readers(t, stop):
    """30 requests for ~3 MiB answers read 8 KiB every 2 s (item 5)."""
    session = None if t.stateless else initialize(t)
    held = []
    for n in range(30):
        try:
            s = connect(t)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(big_answer_request(t, n, session))
            s.setblocking(False)
            held.append(s)
        except OSError:
            pass
    while not stop.wait(2.0):
        for s in held:
            try:
                s.recv(8192)
            except OSError:
                pass
    for s in held:
        s.close()


def attack_session_flood(t, stop):
    """64 initialize from each of 127.0.0.2 to 127.0.0.19 (item 6; sessions only)."""
    if t.stateless:
        stop.wait()
        return
    for host in range(2, 20):
        for _ in range(64):
            if stop.is_set():
                return
            initialize(t, source="127.0.0.%d" % host, timeout=1.0)
    stop.wait()


def attack_huge_batch(t, stop):
    """Batches of 2x10^6 elements, 4 MiB each, in a loop (item 7)."""
    body = b"[" + b",".join([b"1"] * (2 * 1000 * 1000 - 2)) + b"]"
    while not stop.is_set():
        exchange(t, t.headers("tools/call"), body[: 4 * MIB - 10] + b"]", timeout=2.0)


def attack_deep_json(t, stop):
    """2x10^6-deep JSON bodies in a loop."""
    body = b"[" * (2 * 1000 * 1000)
    while not stop.is_set():
        exchange(t, t.headers("tools/call"), body, timeout=2.0)


def task_call(t, seconds, source="127.0.0.1"):
    """A tools/call of the conformance server's slow_compute declaring the Tasks extension
    (SEP-2663): whether the answer was a task (CreateTaskResult), or None without an answer."""
    params = t.params("slow_compute", {"seconds": seconds})
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {
        "extensions": {"io.modelcontextprotocol/tasks": {}}}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    got = exchange(t, t.headers("tools/call", "slow_compute"), body.encode(), timeout=2.0,
                   source=source)
    reply = got and last_message(got[1], got[2])
    if not reply:
        return None
    return reply.get("result", {}).get("resultType") == "task"


def attack_task_flood(t, stop):
    """One address creating 60 s tasks in a loop (issue 51; the conformance server in stateless
    mode only): the store keeps at most the address's share, its later calls are answered
    without a task, and another address still gets one."""
    if not (t.stateless and t.name.startswith("conformance")):
        stop.wait()
        return
    created = refused = 0
    full = False
    while not stop.is_set():
        # Past its share a call runs to its result (a 60 s one until the client gives up at
        # 2 s and hangs up, which cancels it): ask for 0.5 s from then on.
        task = task_call(t, 0.5 if full else 60)
        if task:
            created += 1
        else:
            full = True
            refused += task is False
    other = task_call(t, 1, source="127.0.0.2")
    print("    task-flood: %d tasks kept for the flooding address, %d calls answered without one;"
          " another address %s a task" % (created, refused, "got" if other else "did NOT get"))


ATTACKS = [
    ("baseline", lambda t, stop: stop.wait()),
    ("idle-connections", attack_idle_connections),
    ("slowloris-heads", attack_slowloris),
    ("declared-bodies", attack_declared_bodies),
    ("padded-long-calls", attack_padded_long_calls),
    ("hung-up-calls", attack_hung_up_calls),
    ("long-calls-one-client", attack_long_calls_one_client),
    ("unread-answers", attack_unread_answers),
    ("trickle-readers", attack_trickle_readers),
    ("session-flood-loopback", attack_session_flood),
    ("huge-batch", attack_huge_batch),
    ("deep-json", attack_deep_json),
    ("task-flood", attack_task_flood),
]


def run_attack(target, name, attack):
    stop = threading.Event()
    client = GoodClient(target)
    worker = threading.Thread(target=attack, args=(target, stop), daemon=True)
    peak = rss_mib(target.pid)
    worker.start()
    time.sleep(0.5)  # let the attack take hold before the good client starts counting
    client.start()
    end = time.monotonic() + ATTACK_SECONDS
    while time.monotonic() < end:
        peak = max(peak, rss_mib(target.pid))
        time.sleep(0.1)
    client.stop.set()
    stop.set()
    client.join(CALL_TIMEOUT + 1)
    worker.join(10)
    time.sleep(1.0)
    after = rss_mib(target.pid)
    results = client.results
    served = sum(1 for ok, _ in results if ok)
    latencies = sorted(d for _, d in results)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan")
    alive = target.pid is None or os.path.exists("/proc/%d" % target.pid)
    return served, len(results), p99 * 1000, peak, after, alive, client.misses


TARGETS = ["example-stateless", "example-session", "serve", "serve-stateless",
           "conformance-session", "conformance-stateless"]


def start_server(kind, build, rebuild=True):
    """Starts `kind` (one of TARGETS) on a loopback port: (process, Target)."""
    env = dict(os.environ)
    target_dir = env.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    flags = ["--release"] if build == "release" else []
    stateless = kind.endswith("-stateless")
    if kind.startswith("example") or kind.startswith("conformance"):
        example = "mcp_server" if kind.startswith("example") else "conformance"
        if rebuild:
            subprocess.run(["cargo", "build", "-q", "-p", "mcpwire-server", "--example", example]
                           + flags, cwd=ROOT, check=True)
        cmd = [os.path.join(target_dir, build, "examples", example), "--http", "127.0.0.1:0"]
        if stateless:
            cmd.append("--stateless")
        if example == "mcp_server":
            tool, args, slow = "add", {"a": 2, "b": 3}, "countdown"
        else:
            tool, args, slow = "test_simple_text", {}, None
    else:
        if rebuild:
            subprocess.run(["cargo", "build", "-q", "-p", "mcpwire-cli"] + flags, cwd=ROOT, check=True)
        profile = "mcp-2026-07-28" if stateless else "mcp-2025-11-25"
        cmd = [os.path.join(target_dir, build, "mcpwire"), "serve", "--profile", profile,
               "--http", "127.0.0.1:0"]
        tool, args, slow = "echo", {"text": "hi"}, None
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    port = None
    deadline = time.monotonic() + 30
    while port is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line or "")
        if m:
            port = int(m.group(1))
    if port is None:
        proc.kill()
        sys.exit("the server printed no URL")
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, Target(kind, port, proc.pid, stateless, tool, args, slow)


def main():
    global ATTACK_SECONDS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", choices=TARGETS, default="example-stateless")
    parser.add_argument("--only", help="comma-separated attack names")
    parser.add_argument("--seconds", type=float, default=ATTACK_SECONDS)
    parser.add_argument("--build", choices=["release", "debug"], default="release",
                        help="which build of the server to run (debug: slower, builds faster)")
    parser.add_argument("--no-build", action="store_true",
                        help="run the binary already built (in CARGO_TARGET_DIR or target/)")
    opts = parser.parse_args()
    ATTACK_SECONDS = opts.seconds
    proc, target = start_server(opts.target, opts.build, rebuild=not opts.no_build)
    chosen = [a for a in ATTACKS if not opts.only or a[0] in opts.only.split(",")]
    print("target: %s, %s build (pid %d, port %d), %.0f s per attack, a good call every %.1f s"
          % (target.name, opts.build, target.pid, target.port, ATTACK_SECONDS, CALL_EVERY))
    print("%-24s %9s %9s %10s %10s %6s" % ("attack", "served", "p99 ms", "RSS peak", "RSS after", "alive"))
    try:
        for name, attack in chosen:
            served, total, p99, peak, after, alive, misses = run_attack(target, name, attack)
            print("%-24s %4d/%-4d %9.0f %8.1f M %8.1f M %6s"
                  % (name, served, total, p99, peak, after, "yes" if alive else "NO"), flush=True)
            for why in sorted(set(misses)):
                print("    missed %d: %s" % (misses.count(why), why), flush=True)
            if not alive:
                break
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
