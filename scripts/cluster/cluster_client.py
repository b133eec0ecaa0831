#!/usr/bin/env python3
"""The client side of scripts/cluster/run.sh: drives the conformance server processes of a
cluster (directly, or through nginx) over Streamable HTTP and prints what it saw. Standard
library only. Each command exits 0 when what it checks holds, 1 otherwise.

  listen-trigger A_URL B_URL [ROUNDS]   a listener on A gets tools/list_changed within 1 s
                                        of test_trigger_tool_change on B
  resume URL PORT=PID,...               kill -9 mid-stream, resume with Last-Event-ID at
                                        another process, every missed event exactly once;
                                        then the session's 404 and a new initialize
  flood URL ADDRESS COUNT               through nginx's sticky front end: a client on loopback
                                        opens a session, a client at ADDRESS (another of this
                                        machine's addresses) sends COUNT initializes; says
                                        whether each one's first session is still served
  call URL                              one 2026-07-28 tools/call (test_simple_text)
  health URL...                         GET /healthz of each process: "up" or "down"
  pubsub URL...                         the same, of each process's subscription only
"""
import http.client
import json
import os
import signal
import sys
import threading
import time
import urllib.parse

V2026 = "2026-07-28"
V2025 = "2025-11-25"
TIMEOUT = 10
# The servers' default share of sessions per client (`max_sessions_per_peer`).
SESSIONS_PER_CLIENT = 64


def meta():
    return {
        "io.modelcontextprotocol/protocolVersion": V2026,
        "io.modelcontextprotocol/clientCapabilities": {},
    }


def connect(url, source=None):
    """A connection to `url`'s host, from the local address `source` when given."""
    parts = urllib.parse.urlsplit(url)
    source_address = (source, 0) if source else None
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT,
                                      source_address=source_address)
    return conn, parts.path


def post(url, body, headers=None, stream=False, source=None):
    """POSTs `body` (from the local address `source` when given); returns (response,
    connection) with the response unread when streaming."""
    conn, path = connect(url, source)
    all_headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    all_headers.update(headers or {})
    conn.request("POST", path, json.dumps(body), all_headers)
    response = conn.getresponse()
    if stream:
        return response, conn
    data = response.read()
    conn.close()
    return response, data


def session_headers(session):
    """The headers of a request in the 2025-11-25 session `session`."""
    return {"Mcp-Session-Id": session, "MCP-Protocol-Version": V2025}


def headers_2026(method, name=None):
    headers = {"MCP-Protocol-Version": V2026, "Mcp-Method": method}
    if name:
        headers["Mcp-Name"] = name
    return headers


def events(response):
    """The SSE events of `response` as (id, data) pairs, as they arrive."""
    event_id, data = None, []
    while True:
        line = response.readline()
        if not line:
            return
        line = line.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data or event_id is not None:
                yield event_id, "\n".join(data)
            event_id, data = None, []
        elif line.startswith("id:"):
            event_id = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))


def call_tool(url, name, arguments=None):
    body = {
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"_meta": meta(), "name": name, "arguments": arguments or {}},
    }
    response, data = post(url, body, headers_2026("tools/call", name))
    return response.status, data


def task_request(url, method, name, params):
    """A 2026-07-28 request declaring the Tasks extension; its JSON reply."""
    params = dict(params)
    params["_meta"] = dict(meta())
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    _, data = post(url, body, headers_2026(method, name))
    return json.loads(data)


def task_across(a_url, b_url):
    """A task created at A is read at B (working, then completed) and cancelled at B (the
    record says so at once, at B and at A)."""
    def start(seconds):
        created = task_request(a_url, "tools/call", "slow_compute",
                               {"name": "slow_compute", "arguments": {"seconds": seconds}})
        result = created.get("result", {})
        if result.get("resultType") != "task":
            raise SystemExit(f"not a task: {created}")
        return result["taskId"]

    def get(url, task):
        return task_request(url, "tasks/get", task, {"taskId": task})

    task = start(1)
    seen = get(b_url, task).get("result", {}).get("status")
    print(f"task {task[:8]}… created at A; at B: {seen}")
    deadline = time.monotonic() + 10
    while seen == "working" and time.monotonic() < deadline:
        time.sleep(0.1)
        seen = get(b_url, task).get("result", {}).get("status")
    print(f"  at B after the work: {seen}")
    if seen != "completed":
        return 1
    task = start(60)
    task_request(b_url, "tasks/cancel", task, {"taskId": task})
    at_b = get(b_url, task).get("result", {}).get("status")
    time.sleep(0.5)
    at_a = get(a_url, task).get("result", {}).get("status")
    print(f"  a second task cancelled at B: at B {at_b}, at A {at_a}")
    return 0 if at_b == at_a == "cancelled" else 1


def listen_trigger(a_url, b_url, rounds=3):
    """A listener on A; B changes its tool list; A's listener must hear it within 1 s."""
    worst = 0.0
    for attempt in range(1, rounds + 1):
        body = {
            "jsonrpc": "2.0", "id": f"listen-{attempt}", "method": "subscriptions/listen",
            "params": {"_meta": meta(), "notifications": {"toolsListChanged": True}},
        }
        response, conn = post(a_url, body, headers_2026("subscriptions/listen"), stream=True)
        if response.status != 200:
            print(f"listen on A: HTTP {response.status}")
            return 1
        stream = events(response)
        first = json.loads(next(stream)[1])
        if first.get("method") != "notifications/subscriptions/acknowledged":
            print(f"listen on A: the first message is {first}")
            return 1
        heard = {}

        def wait():
            for _, data in stream:
                if data and json.loads(data).get("method") == "notifications/tools/list_changed":
                    heard["at"] = time.monotonic()
                    return

        reader = threading.Thread(target=wait, daemon=True)
        reader.start()
        started = time.monotonic()
        status, reply = call_tool(b_url, "test_trigger_tool_change")
        if status != 200 or b"Tool list changed" not in reply:
            print(f"test_trigger_tool_change on B: HTTP {status} {reply[:200]!r}")
            return 1
        reader.join(timeout=2.0)
        conn.close()
        if "at" not in heard:
            print(f"round {attempt}: no tools/list_changed on A within 2 s")
            return 1
        latency = heard["at"] - started
        worst = max(worst, latency)
        print(f"round {attempt}: listener on A got notifications/tools/list_changed "
              f"{latency * 1000:.0f} ms after test_trigger_tool_change was called on B")
    if worst > 1.0:
        print(f"FAIL: slowest delivery {worst:.3f} s is over 1 s")
        return 1
    print(f"ok: {rounds} of {rounds} delivered, slowest {worst * 1000:.0f} ms")
    return 0


def open_session(url, source=None):
    """initialize, then notifications/initialized when it opened a session: (HTTP status,
    session id or None, the answering upstream, the answer's first bytes)."""
    body = {
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": V2025, "capabilities": {},
                   "clientInfo": {"name": "cluster-run", "version": "1"}},
    }
    response, data = post(url, body, source=source)
    session = response.getheader("Mcp-Session-Id")
    if response.status == 200 and session:
        post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"},
             session_headers(session), source=source)
    else:
        session = None
    return response.status, session, response.getheader("X-Upstream"), data[:200]


def initialize(url):
    """A session opened at `url` (exits when it cannot be): its id and the answering upstream."""
    status, session, upstream, data = open_session(url)
    if not session:
        raise SystemExit(f"initialize: HTTP {status} {data!r}")
    return session, upstream


def session_call(url, session, source=None):
    """A tools/call (test_simple_text) in `session`: its HTTP status, whether the tool's
    text came back, and the upstream that answered."""
    body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "test_simple_text", "arguments": {}}}
    response, data = post(url, body, session_headers(session), source=source)
    return response.status, b"simple text" in data, response.getheader("X-Upstream")


def flood(url, address, count):
    """One client's initialize flood through nginx, beside another client's session.

    The victim, on loopback, opens a session and calls in it. The attacker, at `address`,
    then sends `count` initializes, spread round-robin over the processes: more than its
    share of sessions (64 per client) at each of them, so each process makes room by ending
    the least recently used idle session of the client that asks. The victim's session is
    the oldest of all: when every request through nginx counts as nginx's own client, the
    attacker's flood ends it. The last two lines say of the attacker's first session at the
    victim's process, then of the victim's: "served", "ended (HTTP <status>)" as the process
    that opened it answered, or "not asked" when nginx sent the call to another process.
    Exits 0 when more than the attacker's share of its sessions reached the victim's process,
    the victim was served there and the attacker's first session there was ended (404)."""
    victim, victim_at = initialize(url)
    status, ok, _ = session_call(url, victim)
    print(f"victim (loopback): session {victim[:8]}… at {victim_at}, tools/call HTTP {status}")
    if status != 200 or not ok:
        return 1
    statuses, opened_at, first = {}, {}, None
    started = time.monotonic()
    for _ in range(count):
        status, session, upstream, _ = open_session(url, address)
        statuses[status] = statuses.get(status, 0) + 1
        if session:
            opened_at[upstream] = opened_at.get(upstream, 0) + 1
            if first is None and upstream == victim_at:
                first = session
    taken = time.monotonic() - started
    print(f"attacker ({address}): {count} initializes in {taken:.1f} s, answers "
          + ", ".join(f"{n}× HTTP {status}" for status, n in sorted(statuses.items()))
          + "; sessions opened per process: "
          + ", ".join(f"{at} {n}" for at, n in sorted(opened_at.items())))
    # Unless the flood passed its share where the victim's session lives, nothing is shown.
    flooded = opened_at.get(victim_at, 0) > SESSIONS_PER_CLIENT
    verdicts = {}
    for who, session, at, source in (("victim", victim, victim_at, None),
                                     ("attacker", first, victim_at, address)):
        if session is None:
            verdicts[who] = "no session"
            continue
        status, ok, upstream = session_call(url, session, source)
        if upstream != at:
            # Only the process that opened the session can say it ended.
            verdicts[who] = f"not asked (HTTP {status} from {upstream}, not {at})"
        else:
            verdicts[who] = "served" if status == 200 and ok else f"ended (HTTP {status})"
    if not flooded:
        print(f"FAIL: at most {SESSIONS_PER_CLIENT} of the flood's sessions reached the "
              f"victim's process {victim_at}")
    print(f"attacker's first session at {victim_at}: {verdicts['attacker']}")
    print(f"victim: {verdicts['victim']}")
    evicted = verdicts["attacker"] == "ended (HTTP 404)"
    return 0 if flooded and evicted and verdicts["victim"] == "served" else 1


def resume(url, pids):
    """Session mode through nginx hashing on Mcp-Session-Id: a slow tool streams numbered
    progress; the client drops its connection after 5 events, the process is killed (-9)
    while the tool still runs, and the client resumes with Last-Event-ID through nginx."""
    session, upstream = initialize(url)
    port = upstream.rsplit(":", 1)[1]
    print(f"session {session[:8]}… lives at process :{port}")
    headers = session_headers(session)
    body = {
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"_meta": {"progressToken": "p"}, "name": "test_numbered_progress",
                   "arguments": {"count": 40, "intervalMs": 100}},
    }
    response, conn = post(url, body, headers, stream=True)
    if response.status != 200:
        print(f"FAIL: tools/call in the session: HTTP {response.status} {response.read()[:300]!r}")
        return 1
    seen, last_id = [], None
    for event_id, data in events(response):
        last_id = event_id or last_id
        if data:
            message = json.loads(data)
            if message.get("method") == "notifications/progress":
                seen.append(int(message["params"]["progress"]))
        if len(seen) == 5:
            break
    conn.close()  # the client's connection breaks; with sessions the call runs on
    print(f"read progress {seen} live, last event id …{last_id[-6:]}; connection dropped")
    time.sleep(1.0)
    os.kill(pids[port], signal.SIGKILL)
    killed_at = time.monotonic()
    print(f"kill -9 process :{port} (pid {pids[port]}) while the tool still runs")
    conn, path = connect(url)
    conn.request("GET", path, headers={
        **headers, "Accept": "text/event-stream", "Last-Event-ID": last_id})
    response = conn.getresponse()
    other = response.getheader("X-Upstream", "?")
    if response.status != 200:
        print(f"FAIL: resume: HTTP {response.status} {response.read()[:300]!r}")
        return 1
    resumed, ids = [], []
    for event_id, data in events(response):
        if data:
            message = json.loads(data)
            if message.get("method") == "notifications/progress":
                resumed.append(int(message["params"]["progress"]))
                ids.append(int(event_id.rsplit("-", 1)[1]))
    ended = time.monotonic() - killed_at
    conn.close()
    print(f"resumed through nginx at {other}: progress {resumed[0] if resumed else '-'}"
          f"..{resumed[-1] if resumed else '-'} ({len(resumed)} events), stream ended "
          f"{ended:.1f} s after the kill (its writer is gone)")
    ok = True
    if other.endswith(":" + port):
        print("FAIL: resumed at the killed process")
        ok = False
    expected = list(range(len(seen) + 1, len(seen) + 1 + len(resumed)))
    if not resumed or resumed != expected or ids != resumed:
        print(f"FAIL: expected every missed event once, in order: got {resumed}")
        ok = False
    if len(resumed) < 3:
        print("FAIL: fewer than 3 events were missed: the kill came too early to tell")
        ok = False
    if len(seen) + len(resumed) >= 40:
        print("FAIL: the tool finished before the kill")
        ok = False
    # The session's process is gone: the transport's 404, then a new session works.
    response, _ = post(url, {"jsonrpc": "2.0", "id": 8, "method": "tools/list"}, headers)
    print(f"a request of the dead session: HTTP {response.status}")
    if response.status != 404:
        ok = False
    new_session, new_upstream = initialize(url)
    print(f"re-initialized: session {new_session[:8]}… at {new_upstream}")
    print("ok: every missed event exactly once" if ok else "FAIL")
    return 0 if ok else 1


def health(urls, pick=lambda report: report.get("status", "?")):
    states = []
    for url in urls:
        try:
            conn, _ = connect(url)
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            states.append(pick(json.loads(response.read())))
            conn.close()
        except OSError:
            states.append("unreachable")
    print(" ".join(states))
    return 0 if all(s == "up" for s in states) else 1


def pubsub(report):
    return report.get("checks", {}).get("redis", {}).get("pubsub", "?")


def main(argv):
    if len(argv) >= 3 and argv[0] == "listen-trigger":
        rounds = int(argv[3]) if len(argv) > 3 else 3
        return listen_trigger(argv[1], argv[2], rounds)
    if len(argv) == 3 and argv[0] == "task-across":
        return task_across(argv[1], argv[2])
    if len(argv) == 3 and argv[0] == "resume":
        pids = dict(pair.split("=") for pair in argv[2].split(","))
        return resume(argv[1], {port: int(pid) for port, pid in pids.items()})
    if len(argv) == 4 and argv[0] == "flood":
        return flood(argv[1], argv[2], int(argv[3]))
    if len(argv) == 2 and argv[0] == "call":
        status, reply = call_tool(argv[1], "test_simple_text")
        print(f"HTTP {status} {reply[:120].decode(errors='replace')}")
        return 0 if status == 200 and b"simple text" in reply else 1
    if len(argv) >= 2 and argv[0] == "health":
        return health(argv[1:])
    if len(argv) >= 2 and argv[0] == "pubsub":
        return health(argv[1:], pubsub)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
