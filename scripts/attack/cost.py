#!/usr/bin/env python3
"""Issue 46, item 3: the server's CPU time per byte of each attacker-reachable input.

Starts a server target (as attack.py does), then, for each input an attacker controls (a
resource URI, a tool argument, an id, a header, ...), sends it inside an otherwise valid
request at several sizes and measures the server's CPU time from its own counters: the sum of
`/proc/<pid>/task/*/schedstat` (nanoseconds on a CPU, per thread), never wall time. For each
size it prints the CPU microseconds per KiB of input beyond a baseline (the same request with
the input a few bytes long), and the ratio of the largest size's figure to the smallest's;
an input whose per-byte cost grows more than 2x (a superlinear path) is flagged.

    python3 scripts/attack/cost.py --target conformance-session
    python3 scripts/attack/cost.py --target serve-stateless --only uri,string-id
    python3 scripts/attack/cost.py --target example-session --markdown

Sizes are 16, 64 and 256 KiB, 1 and 4 MiB (the body limit, less room for the rest of the
request); an input that travels in a header (capped with the whole request head at 64 KiB),
or is refused beyond a bound (`requestState`, 64 KiB), is sent at 16, 32 and 56 KiB instead.
Each measurement sends enough requests that the inputs add up to at least 1 MiB, so a small
size is not lost in the per-request cost. An input whose single request costs more than
MAX_CPU_PER_REQUEST is not sent at larger sizes (flagged as superlinear).

Loopback only; bounded in count and time (a few minutes per target). Not part of CI.
"""

import argparse
import base64
import json
import os
import socket
import statistics
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attack  # noqa: E402  (shares its targets and wire helpers)

KIB = 1024
BODY_SIZES = [16 * KIB, 64 * KIB, 256 * KIB, 1024 * KIB, 4 * 1024 * KIB - 2 * KIB]
HEAD_SIZES = [16 * KIB, 32 * KIB, 56 * KIB]
BASE_SIZE = 8
BATCH_BYTES = 1024 * KIB  # inputs per measurement add up to at least this
REPS = 15  # measurements per size (the median of the paired differences is kept)
MAX_CPU_PER_REQUEST = 2.0  # seconds: a request costing more stops the input's larger sizes
MEASURE_BUDGET = 0.5  # seconds of server CPU one measurement may take (fewer requests then)
SIZE_BUDGET = 10.0  # and all measurements of one size (fewer repetitions, at least 3)
REQUEST_TIMEOUT = 60.0
TRICKLE_PIECE = 256  # bytes per write of a trickled request head
TRICKLE_PAUSE = 0.0005  # seconds between those writes
REFUSED = {None, 413, 431}  # the input never reached the server's code: not measured
LIMIT = 2.0  # per-byte growth from the smallest size to the largest that is flagged


# ---------------------------------------------------------------- the server's CPU time

def cpu_ns(pid):
    """(CPU nanoseconds of every live thread of `pid`, their thread ids)."""
    total, tids = 0, []
    task = "/proc/%d/task" % pid
    for tid in os.listdir(task):
        try:
            with open("%s/%s/schedstat" % (task, tid)) as f:
                total += int(f.read().split()[0])
            tids.append(tid)
        except (OSError, ValueError, IndexError):
            pass
    return total, frozenset(tids)


def ticks(pid):
    """(user, system) CPU time of `pid` in clock ticks, dead threads included."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


def settled_cpu_ns(pid):
    """The CPU time once the server stops using any (it may still be closing a connection
    when its answer has arrived): at most 100 ms of waiting."""
    last, tids = cpu_ns(pid)
    for _ in range(50):
        time.sleep(0.002)
        now, tids = cpu_ns(pid)
        if now == last:
            break
        last = now
    return last, tids


# ---------------------------------------------------------------- requests

class Ctx:
    """A target with its session (session mode), for building requests."""

    def __init__(self, target):
        self.t = target
        self.session = None

    def ensure_session(self):
        if not self.t.stateless and self.session is None:
            self.session = attack.initialize(self.t, timeout=10.0)
            if self.session is None:
                sys.exit("initialize failed")

    def headers(self, method, name=None, session=True):
        h = self.t.headers(method, name, self.session if session else None)
        if not self.t.stateless:
            # Mcp-Method and Mcp-Name exist from 2026-07-28 (stateless) on: a session
            # (2025-11-25) sends neither.
            h.pop("Mcp-Method", None)
            h.pop("Mcp-Name", None)
        return h

    def meta(self, extra=None):
        m = {}
        if self.t.stateless:
            m = {"io.modelcontextprotocol/protocolVersion": self.t.version,
                 "io.modelcontextprotocol/clientCapabilities": {}}
        m.update(extra or {})
        return m

    def body(self, method, params=None, rid=1, meta=None):
        params = dict(params or {})
        m = self.meta(meta)
        if m:
            params["_meta"] = m
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params:
            msg["params"] = params
        return json.dumps(msg).encode()


def post(ctx, method, params=None, name=None, rid=1, meta=None, headers=None):
    h = ctx.headers(method, name)
    h.update(headers or {})
    return ("POST", h, ctx.body(method, params, rid, meta))


def fill(n, unit="x"):
    return (unit * (n // len(unit) + 1))[:n]


# Each input: (name, where it is handled, sizes ("body" or "head"), applies(target),
# build(ctx, n) -> (http method, headers, body bytes)). `n` is the input's size in bytes.

def string_arg(ctx):
    """The tool and argument name that takes a string on this target."""
    if ctx.t.name.startswith("serve"):
        return "echo", "text", {}
    if ctx.t.name.startswith("conformance"):
        return "json_schema_2020_12_tool", "name", {"email": "e"}
    return "add", "a", {"b": 1}  # the example: a string where an integer goes (-32602)


def build_tool_arg(ctx, n, value=None):
    tool, arg, rest = string_arg(ctx)
    args = dict(rest)
    args[arg] = value if value is not None else fill(n)
    return post(ctx, "tools/call", {"name": tool, "arguments": args}, name=tool)


def build_escapes(ctx, n):
    tool, arg, rest = string_arg(ctx)
    args = dict(rest)
    args[arg] = "\u00e9" * max(1, n // 6)  # json.dumps writes each as the 6 bytes \u00e9
    return post(ctx, "tools/call", {"name": tool, "arguments": args}, name=tool)


def build_arg_members(ctx, n):
    tool, arg, rest = string_arg(ctx)
    args = dict(rest)
    args[arg] = "v" if arg != "a" else 1
    for i in range(max(1, n // 15)):
        args["m%07d" % i] = 0  # "m0000001": 0, is 15 bytes
    return post(ctx, "tools/call", {"name": tool, "arguments": args}, name=tool)


def uri_params(ctx, uri):
    return post(ctx, "resources/read", {"uri": uri}, name=uri)


def build_uri(ctx, n):
    return uri_params(ctx, "test://template/" + fill(n, "a"))


def build_uri_match(ctx, n):
    return uri_params(ctx, "test://template/" + fill(n, "a") + "/data")


def build_uri_percent(ctx, n):
    return uri_params(ctx, "test://template/" + fill(n, "%41") + "/data")


def build_nesting(ctx, n):
    depth = 240  # params > _meta > pad > 240 arrays: within the 256 of max_params_depth
    branch = "[" * depth + "]" * depth
    count = max(1, n // (len(branch) + 1))
    meta = json.dumps(ctx.meta())[:-1]
    meta = (meta + ", " if ctx.meta() else "{") + '"pad": [' + ",".join([branch] * count) + "]}"
    body = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": %s}}' % meta
    return ("POST", ctx.headers("tools/list"), body.encode())


def build_meta_members(ctx, n):
    extra = {"m%07d" % i: 0 for i in range(max(1, n // 15))}
    return post(ctx, "tools/list", meta=extra)


def build_params_members(ctx, n):
    params = {"p%07d" % i: 0 for i in range(max(1, n // 15))}
    return post(ctx, "tools/list", params)


def build_meta_duplicates(ctx, n):
    body = ctx.body("tools/list", meta={"k": 0}).decode()
    dup = '"k": 0, ' * max(1, n // 8)
    body = body.replace('"k": 0', dup + '"k": 0', 1)
    return ("POST", ctx.headers("tools/list"), body.encode())


def build_meta_string(ctx, n):
    return post(ctx, "tools/list", meta={"pad": fill(n)})


def build_method(ctx, n):
    method = "x/" + fill(n)
    return post(ctx, method)


def build_string_id(ctx, n):
    return post(ctx, "tools/list", rid=fill(n))


def build_numeric_id(ctx, n):
    digits = "1" + fill(n - 1, "234567890") if n > 1 else "1"
    body = ctx.body("tools/list", rid=7).decode().replace('"id": 7', '"id": ' + digits, 1)
    return ("POST", ctx.headers("tools/list"), body.encode())


def build_float_id(ctx, n):
    digits = "1." + fill(n, "234567890") + "e-5"
    body = ctx.body("tools/list", rid=7).decode().replace('"id": 7', '"id": ' + digits, 1)
    return ("POST", ctx.headers("tools/list"), body.encode())


def build_cursor(ctx, n):
    return post(ctx, "tools/list", {"cursor": "c1." + fill(n, "0f")})


def build_request_state(ctx, n):
    half = max(2, (n - 70) // 2 * 2)
    state = "rs1." + fill(half, "7b") + "." + "00" * 32
    params = {"name": ctx.t.tool, "arguments": ctx.t.args, "requestState": state,
              "inputResponses": {}}
    return post(ctx, "tools/call", params, name=ctx.t.tool)


def build_mcp_name(ctx, n):
    name = fill(n, "n")
    return post(ctx, "tools/call", {"name": name, "arguments": {}}, name=name)


def build_mcp_name_base64(ctx, n):
    name = fill(n * 3 // 8, "\u00e9")  # 2 bytes each in UTF-8, so n bytes of base64
    h = ctx.headers("tools/call")
    h["Mcp-Name"] = "=?base64?" + base64.b64encode(name.encode()).decode() + "?="
    return ("POST", h, ctx.body("tools/call", {"name": name, "arguments": {}}))


def build_param_header(ctx, n):
    region = fill(n, "r")
    return post(ctx, "tools/call", {"name": "test_custom_headers",
                                    "arguments": {"region": region}},
                name="test_custom_headers", headers={"Mcp-Param-Region": region})


def build_session_id(ctx, n):
    h = ctx.headers("tools/list", session=False)
    h["Mcp-Session-Id"] = fill(n, "s")
    return ("POST", h, ctx.body("tools/list"))


def build_last_event_id(ctx, n):
    h = {"Host": "127.0.0.1:%d" % ctx.t.port, "Accept": "text/event-stream",
         "MCP-Protocol-Version": ctx.t.version, "Mcp-Session-Id": ctx.session,
         "Last-Event-ID": fill(n, "e")}
    return ("GET", h, b"")


def build_accept(ctx, n):
    h = ctx.headers("tools/list")
    h["Accept"] = fill(n, "text/x-probe;q=0.1, ") + ", application/json, text/event-stream"
    return ("POST", h, ctx.body("tools/list"))


def build_origin(ctx, n):
    h = ctx.headers("tools/list")
    h["Origin"] = "http://" + fill(n, "o")
    return ("POST", h, ctx.body("tools/list"))


def build_trickled_head(ctx, n):
    h = ctx.headers("tools/list")
    h["X-Probe-Pad"] = fill(n, "p")
    return ("POST", h, ctx.body("tools/list"), TRICKLE_PIECE)


build_trickled_head.count = 3  # each request takes n / TRICKLE_PIECE pauses to send


def build_completion_prompt(ctx, n):
    return post(ctx, "completion/complete", {
        "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
        "argument": {"name": "arg1", "value": "pa" + fill(n, "r")}})


def build_completion_template(ctx, n):
    return post(ctx, "completion/complete", {
        "ref": {"type": "ref/resource", "uri": "test://template/{id}/data"},
        "argument": {"name": "id", "value": "pa" + fill(n, "r")}})


def build_unreadable_tail(ctx, n):
    body = ctx.body("tools/list", meta={"pad": fill(n)})
    return ("POST", ctx.headers("tools/list"), body[:-1])  # no closing brace: id recovery


def everywhere(t):
    return True


def sessions(t):
    return not t.stateless


def stateless(t):
    return t.stateless


def conformance(t):
    return t.name.startswith("conformance")


def conformance_stateless(t):
    return conformance(t) and t.stateless


def uri_sizes(t):
    return "head" if t.stateless else "body"  # Mcp-Name repeats the URI under 2026-07-28


INPUTS = [
    ("meta-string", "a plain string in _meta: the JSON scan (reference)", "body", everywhere,
     build_meta_string),
    ("uri", "resources/read, no template matches (uri_template.rs)", uri_sizes, everywhere,
     build_uri),
    ("uri-match", "resources/read matching test://template/{id}/data, answered", uri_sizes,
     conformance, build_uri_match),
    ("uri-percent", "resources/read, %41 x n in the variable (percent-decoding)", uri_sizes,
     conformance, build_uri_percent),
    ("tool-arg", "tools/call string argument: schema validation, the handler, its answer",
     "body", everywhere, build_tool_arg),
    ("escapes", "tools/call argument of \\u00e9 escapes (unescaping, re-escaping)",
     "body", everywhere, build_escapes),
    ("arg-members", "tools/call arguments with many members (validation, unknown members)",
     "body", everywhere, build_arg_members),
    ("nesting", "_meta holding many 240-deep arrays (depth limit 256)", "body", everywhere,
     build_nesting),
    ("meta-members", "_meta with many members (unknown-member keeping)", "body", everywhere,
     build_meta_members),
    ("params-members", "tools/list params with many unknown members", "body", everywhere,
     build_params_members),
    ("meta-duplicates", "_meta repeating one member name", "body", everywhere,
     build_meta_duplicates),
    ("method", "a long unknown method (router lookup; Mcp-Method when stateless)",
     lambda t: "head" if t.stateless else "body", everywhere, build_method),
    ("string-id", "a long string id (echoed)", "body", everywhere, build_string_id),
    ("numeric-id", "an integer id of n digits (echoed exactly)", "body", everywhere,
     build_numeric_id),
    ("float-id", "a fractional id of n digits", "body", everywhere, build_float_id),
    ("cursor", "tools/list with a bogus c1.<hex> cursor (catalog.rs)", "body", everywhere,
     build_cursor),
    ("request-state", "tools/call with a bogus rs1.<hex>.<hex> requestState (request_state.rs)",
     "head", stateless, build_request_state),
    ("mcp-name", "tools/call of an unknown tool named in body and Mcp-Name", "head", stateless,
     build_mcp_name),
    ("mcp-name-base64", "the same, Mcp-Name as =?base64?...?= (routing.rs)", "head",
     stateless, build_mcp_name_base64),
    ("param-header", "Mcp-Param-Region mirroring a tool argument (param_header.rs)", "head",
     conformance_stateless, build_param_header),
    ("session-id", "an unknown Mcp-Session-Id (sessions.rs)", "head", sessions,
     build_session_id),
    ("last-event-id", "GET with a Last-Event-ID (endpoint.rs, event store)", "head", sessions,
     build_last_event_id),
    ("trickled-head", "a request head sent 256 bytes at a time (hyper's head parser)", "head",
     everywhere, build_trickled_head),
    ("accept", "an Accept header listing many types", "head", everywhere, build_accept),
    ("origin", "a long Origin header (origin.rs)", "head", everywhere, build_origin),
    ("completion-prompt", "completion/complete of a prompt argument", "body", conformance,
     build_completion_prompt),
    ("completion-template", "completion/complete of a template variable", "body", conformance,
     build_completion_template),
    ("unreadable-tail", "a request missing its last brace (id recovery)", "body", everywhere,
     build_unreadable_tail),
]


# ---------------------------------------------------------------- measuring

def send(ctx, request):
    """Sends one request on a fresh connection and waits for its answer (a GET: its head);
    a request with a piece size has its head written that many bytes at a time. Returns the
    status, or None when the connection closed without one."""
    method, headers, body = request[:3]
    piece = request[3] if len(request) > 3 else None
    if method == "POST" and not piece:
        got = attack.exchange(ctx.t, headers, body, timeout=REQUEST_TIMEOUT)
        return got[0] if got else None
    raw = b""
    try:
        s = socket.create_connection(("127.0.0.1", ctx.t.port), timeout=REQUEST_TIMEOUT)
    except OSError:
        return None
    try:
        data = attack.request_bytes(headers, body, method=method)
        if piece:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            head_end = data.index(b"\r\n\r\n") + 4
            for at in range(0, head_end, piece):
                s.sendall(data[at:min(at + piece, head_end)])
                time.sleep(TRICKLE_PAUSE)
            data = data[head_end:]
        s.sendall(data)
        # A POST's answer ends when the server closes (Connection: close); a GET opens a
        # stream that does not end, so its head is enough.
        while method == "POST" or b"\r\n\r\n" not in raw:
            chunk = s.recv(65536)
            if not chunk:
                break
            raw += chunk
    except OSError:
        pass
    finally:
        s.close()
    return int(raw.split()[1]) if raw.startswith(b"HTTP/") else None


def measure(ctx, build, n, count):
    """CPU seconds of `count` requests with the input at `n` bytes, and the statuses seen; a
    thread of the server ending between the two readings loses its time: measured again."""
    requests = [build(ctx, n) for _ in range(count)]
    for _ in range(3):
        before, tids = settled_cpu_ns(ctx.t.pid)
        statuses = [send(ctx, r) for r in requests]
        after, tids_after = settled_cpu_ns(ctx.t.pid)
        if tids <= tids_after:
            return (after - before) / 1e9, statuses
    return (after - before) / 1e9, statuses


def probe(ctx, build, sizes, reps):
    """Per size: (n, CPU µs per KiB beyond the baseline, CPU ms per request, statuses).

    Each repetition measures the baseline (the input at BASE_SIZE bytes) and then the input
    at `n`, with the same number of requests; the median of the paired differences is kept,
    so a change in the machine's load between repetitions cancels out."""
    rows = []
    for n in sizes:
        k = getattr(build, "count", None) or max(1, -(-BATCH_BYTES // n))
        # One request first: an input that costs seconds is measured with fewer requests,
        # and one over MAX_CPU_PER_REQUEST is not sent again, nor at larger sizes.
        pilot, seen = measure(ctx, build, n, 1)
        if pilot > MAX_CPU_PER_REQUEST:
            rows.append((n, pilot / (n / KIB) * 1e6, pilot * 1e3, set(seen), 0.0, False, 0.0))
            break
        k = min(k, max(1, int(MEASURE_BUDGET / max(pilot, 1e-9))))
        runs = min(reps, max(3, int(SIZE_BUDGET / max(k * pilot, 1e-9))))
        diffs, totals, statuses = [], [], set()
        user0, system0 = ticks(ctx.t.pid)
        for _ in range(runs):
            base = measure(ctx, build, BASE_SIZE, k)[0]
            cpu, seen = measure(ctx, build, n, k)
            diffs.append(cpu - base)
            totals.append(cpu)
            statuses.update(seen)
        user1, system1 = ticks(ctx.t.pid)
        system = (system1 - system0) / max(1, user1 - user0 + system1 - system0)
        scale = 1e6 / k / (n / KIB)
        per_kib = statistics.median(diffs) * scale
        # The standard error of that median (1.253 times that of a mean), in µs per KiB.
        noise = 1.253 * statistics.stdev(diffs) / len(diffs) ** 0.5 * scale
        per_request = statistics.median(totals) / k
        refused = bool(statuses & REFUSED)
        rows.append((n, per_kib, per_request * 1e3, statuses, system, refused, noise))
    return rows


def size_text(n):
    return "%d KiB" % (n // KIB) if n < 1024 * KIB else "%.0f MiB" % (n / (1024 * KIB))


def verdict(rows, sizes):
    """(ratio of the largest measured size's CPU per byte to the smallest's, its word)."""
    measured = [r for r in rows if not r[5]]
    if len(measured) < 2:
        return float("nan"), "not measured (refused)"
    first, last = measured[0][1], measured[-1][1]
    # The smallest size's figure is taken as at least twice its standard error: an input
    # that adds less than that to a request's cost is not resolved there (a byte of a
    # header costs about a nanosecond, a request about 100 µs), and no smaller per-byte
    # cost can be told from zero. Never below 0.05 µs/KiB.
    ratio = max(last, 0.05) / max(first, 2 * measured[0][6], 0.05)
    if len(rows) < len(sizes):
        return ratio, "SUPERLINEAR (one request over %.0f s of CPU at %s; larger sizes not sent)" \
            % (MAX_CPU_PER_REQUEST, size_text(rows[-1][0]))
    return ratio, ("OVER %.0fx" % LIMIT if ratio > LIMIT else "ok")


def cell(row, noise=False):
    if row[5]:
        return "refused (%s)" % ",".join(map(str, sorted(row[3] & REFUSED, key=str)))
    return "%.2f±%.2f" % (row[1], row[6]) if noise else "%.2f" % row[1]


STEADY_MALLOC = "glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=1073741824"


def run(opts, names, steady):
    """Starts the target and probes the inputs named (all that apply when None): a list of
    (name, where, rows, ratio, verdict word). With `steady`, glibc's malloc keeps its mmap and
    trim thresholds fixed (GLIBC_TUNABLES), so a large buffer reuses memory instead of
    faulting fresh pages in from the kernel on each request."""
    saved = os.environ.get("GLIBC_TUNABLES")
    if steady:
        os.environ["GLIBC_TUNABLES"] = STEADY_MALLOC
    try:
        proc, target = attack.start_server(opts.target, opts.build, rebuild=not opts.no_build)
    finally:
        if saved is None:
            os.environ.pop("GLIBC_TUNABLES", None)
        else:
            os.environ["GLIBC_TUNABLES"] = saved
    ctx = Ctx(target)
    results = []
    try:
        ctx.ensure_session()
        load = open("/proc/loadavg").read().split()[:3]
        print("target: %s, %s build (pid %d, port %d), malloc %s, load average %s"
              % (target.name, opts.build, target.pid, target.port,
                 "with fixed thresholds" if steady else "as deployed", " ".join(load)),
              flush=True)
        chosen = [i for i in INPUTS if i[3](target) and (names is None or i[0] in names)]
        for name, where, kind, _, build in chosen:
            kind = kind(target) if callable(kind) else kind
            sizes = HEAD_SIZES if kind == "head" else BODY_SIZES
            if opts.sizes:
                sizes = [int(float(v) * KIB) for v in opts.sizes.split(",")]
            rows = probe(ctx, build, sizes, REPS)
            ratio, word = verdict(rows, sizes)
            statuses = sorted(set().union(*(r[3] for r in rows)), key=str)
            cells = ["%s: %s" % (size_text(r[0]), cell(r, True)) for r in rows]
            print("%-20s %s  ratio %.2f %s  (largest: %.2f ms/request, %.0f%% system; "
                  "status %s)" % (name, "  ".join(cells), ratio, word, rows[-1][2],
                                  rows[-1][4] * 100, ",".join(map(str, statuses))), flush=True)
            results.append((name, where, rows, ratio, word, statuses))
            if not os.path.exists("/proc/%d" % target.pid):
                print("the server died")
                break
    finally:
        proc.kill()
        proc.wait()
    return results


def markdown(results, rechecked):
    """The table of docs/http.md: one row per input."""
    print("| input | where | sizes | CPU µs per KiB at each size | ratio | fixed-threshold "
          "malloc: µs/KiB, ratio |")
    print("|---|---|---|---|---|---|")
    for name, where, rows, ratio, word, statuses in results:
        again = rechecked.get(name)
        other = "—"
        if again:
            other = "%s; %.2f" % (" / ".join(cell(r) for r in again[2]), again[3])
        print("| %s | %s | %s | %s | %.2f%s | %s |" % (
            name, where, ", ".join(size_text(r[0]) for r in rows),
            " / ".join(cell(r) for r in rows), ratio,
            "" if word == "ok" else " (%s)" % word.lower(), other))


def main():
    global REPS
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", choices=attack.TARGETS, default="conformance-session")
    parser.add_argument("--only", help="comma-separated input names")
    parser.add_argument("--reps", type=int, default=REPS)
    parser.add_argument("--build", choices=["release", "debug"], default="release")
    parser.add_argument("--no-build", action="store_true",
                        help="run the binary already built (in CARGO_TARGET_DIR or target/)")
    parser.add_argument("--sizes", help="comma-separated sizes in KiB, instead of the defaults")
    parser.add_argument("--steady-malloc", action="store_true",
                        help="run the server with fixed glibc malloc thresholds from the start")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table")
    opts = parser.parse_args()
    REPS = opts.reps
    started = time.monotonic()
    names = set(opts.only.split(",")) if opts.only else None
    results = run(opts, names, opts.steady_malloc)
    flagged = [r[0] for r in results if r[4].startswith(("OVER", "SUPER"))]
    rechecked, superlinear = {}, list(flagged)
    if flagged and not opts.steady_malloc:
        # A step in the cost per byte can come from the allocator, not the code: glibc
        # serves a large buffer with fresh pages from the kernel (page faults, zeroing) once
        # it passes its dynamic thresholds. Measured again with those thresholds fixed, an
        # input whose cost per byte still grows is the code's.
        print("over %.0fx: %s; measured again with malloc's thresholds fixed"
              % (LIMIT, ", ".join(flagged)), flush=True)
        rechecked = {r[0]: r for r in run(opts, set(flagged), True)}
        superlinear = [n for n in flagged
                       if n not in rechecked or rechecked[n][4].startswith(("OVER", "SUPER"))]
    if opts.markdown:
        markdown(results, rechecked)
    print("%d inputs in %.0f s; over %.0fx: %s; still over with malloc's thresholds fixed: %s"
          % (len(results), time.monotonic() - started, LIMIT, ", ".join(flagged) or "none",
             ", ".join(superlinear) or "none"))
    return 1 if superlinear else 0


if __name__ == "__main__":
    sys.exit(main())
