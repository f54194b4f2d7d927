"""Records what node-redlock (with ioredis) sends to five real Redis masters, one JSON trace per
situation in tests/recipes/traces/. See redlock_README.md.

    python3 tests/recipes/record/redlock_record.py                      # every situation, redlock 4.2.0
    python3 tests/recipes/record/redlock_record.py --v5                 # every situation, 5.0.0-beta.2 (redlock5_*)
    python3 tests/recipes/record/redlock_record.py redlock_contention   # just these
    python3 tests/recipes/record/redlock_record.py --all                # both versions, everything

Masters 0..4 are redis-server on 127.0.0.1:7001..7005 (--save '' --appendonly no, --dir
$REDLOCK_REC_DIR/<index>); each situation restarts all five (empty, empty script cache). Each
client label has its own proxy ports (A 17001..17005, B 17101..17105), so every logged message
says which client and which master it belongs to.
"""
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))
import redisproxy  # noqa: E402

TRACES = ROOT / "tests" / "recipes" / "traces"
WORK = Path(os.environ.get("REDLOCK_REC_DIR", "/tmp/redlock-rec"))
DRIVER = HERE / "redlock_driver.mjs"
INSTALLS = {
    4: ("v4", ["redlock@4.2.0", "ioredis@4.31.0"]),
    5: ("v5", ["redlock@5.0.0-beta.2", "ioredis@4.31.0"]),
}
MASTER_PORTS = [7001, 7002, 7003, 7004, 7005]
LABEL_PORTS = {"A": [17001, 17002, 17003, 17004, 17005], "B": [17101, 17102, 17103, 17104, 17105]}
RESOURCE = "locks:m"
DEFAULTS = {"driftFactor": 0.01, "retryCount": 10, "retryDelay": 200, "retryJitter": 100}
DEFAULTS5 = dict(DEFAULTS, automaticExtensionThreshold=500)
HEX32 = re.compile(r"^[0-9a-f]{32}$")


# ---------------------------------------------------------------- redis-server management

def master_dir(i):
    return WORK / str(i)


def pidfile(i):
    return master_dir(i) / "redis.pid"


async def rcmd(port, *args, timeout=5.0):
    """One command on a fresh direct connection (not through the proxy); returns the decoded reply."""
    r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        w.write(b"".join([b"*%d\r\n" % len(args)] + [b"$%d\r\n%s\r\n" % (len(a), a) for a in
                                                      (str(x).encode() for x in args)]))
        await w.drain()
        buf = b""
        while True:
            data = await asyncio.wait_for(r.read(65536), timeout)
            if not data:
                raise ConnectionError("closed")
            buf += data
            try:
                return redisproxy.parse_reply(buf)[0]
            except redisproxy.Incomplete:
                continue
    finally:
        w.close()


async def port_alive(port):
    try:
        return (await rcmd(port, "PING", timeout=1.0)) == {"simple": "PONG"}
    except (OSError, ConnectionError, asyncio.TimeoutError):
        return False


async def start_master(i):
    d = master_dir(i)
    d.mkdir(parents=True, exist_ok=True)
    for f in d.glob("*.rdb"):
        f.unlink()
    subprocess.run(["redis-server", "--port", str(MASTER_PORTS[i]), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--daemonize", "yes", "--dir", str(d),
                    "--pidfile", str(pidfile(i)), "--logfile", str(d / "redis.log")], check=True)
    for _ in range(500):
        if await port_alive(MASTER_PORTS[i]):
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"redis-server on {MASTER_PORTS[i]} did not start")


async def kill_master(i):
    pf = pidfile(i)
    if pf.exists():
        try:
            pid = int(pf.read_text().strip())
            os.kill(pid, signal.SIGKILL)
        except (ValueError, ProcessLookupError):
            pass
        pf.unlink(missing_ok=True)
    for _ in range(500):
        if not await port_alive(MASTER_PORTS[i]):
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"redis-server on {MASTER_PORTS[i]} is still answering (not started by us?)")


async def redis_version():
    info = (await rcmd(MASTER_PORTS[0], "INFO", "server"))["bulk"]
    return re.search(r"redis_version:(\S+)", info).group(1)


def ensure_install(major):
    d, pkgs = INSTALLS[major]
    inst = WORK / d
    want = {p.rsplit("@", 1)[0]: p.rsplit("@", 1)[1] for p in pkgs}
    ok = True
    for name, ver in want.items():
        pj = inst / "node_modules" / name / "package.json"
        if not pj.exists() or json.loads(pj.read_text())["version"].lstrip("v") != ver:
            ok = False
    if not ok:
        inst.mkdir(parents=True, exist_ok=True)
        if not (inst / "package.json").exists():
            (inst / "package.json").write_text('{"name": "redlock-rec-%s", "private": true}\n' % d)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", *pkgs], cwd=inst, check=True)
    return inst


# ---------------------------------------------------------------- one situation

class Situation:
    def __init__(self, name, major, proxy, t0):
        self.name, self.major, self.proxy, self.t0 = name, major, proxy, t0
        self.driver = None
        self.devents = []          # driver events (dicts with t_ns)
        self.actions = []          # orchestrator actions (dicts with t_ns)
        self.auto_notes = []
        self.settings = {}
        self.ttls = {}
        self.next_id = 0
        self.changed = asyncio.Event()
        self.up = [True] * 5
        self.monitor = None

    # driver plumbing
    async def start_driver(self, inst):
        self.stderr = open(WORK / f"{self.name}.driver.log", "w")
        self.driver = await asyncio.create_subprocess_exec(
            "node", str(DRIVER), str(inst), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=self.stderr)
        self.reader = asyncio.ensure_future(self._read())
        await self.wait_event(lambda e: e["ev"] == "started", 20)

    async def _read(self):
        while True:
            line = await self.driver.stdout.readline()
            if not line:
                break
            e = json.loads(line)
            e["t_ns"] = int(e["t_ns"])
            self.devents.append(e)
            self.changed.set()

    async def wait_event(self, pred, timeout, since=0):
        deadline = time.monotonic() + timeout
        while True:
            for e in self.devents[since:]:
                if pred(e):
                    return e
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    def send(self, cmd):
        self.next_id += 1
        cmd["id"] = self.next_id
        self.driver.stdin.write((json.dumps(cmd) + "\n").encode())
        return self.next_id

    def act(self, **kw):
        kw["t_ns"] = time.monotonic_ns()
        self.actions.append(kw)

    # steps
    async def open(self, client, settle=True, **settings):
        since = len(self.devents)
        self.settings[client] = dict(DEFAULTS5 if self.major >= 5 else DEFAULTS, **settings)
        self.send({"cmd": "open", "client": client, "ports": LABEL_PORTS[client], "settings": settings})
        await self.wait_event(lambda e: e["ev"] == "opened" and e["client"] == client, 10, since)
        for m in range(5):
            if self.up[m]:
                await self.wait_ready(client, m, since)
        if settle:
            await self.settle()

    async def wait_ready(self, client, master, since=0, timeout=10):
        e = await self.wait_event(lambda e: e["ev"] == "ioredis" and e["client"] == client
                                  and e["master"] == master and e["event"] == "ready", timeout, since)
        if e is None:
            self.auto_notes.append(f"client {client} master {master}: no ioredis 'ready' within {timeout} s")

    async def lockcall(self, action, client, lock, wait=True, timeout=180, **kw):
        cmd = {"cmd": action, "client": client, "lock": lock, **kw}
        if action == "acquire":
            cmd["resource"] = RESOURCE
            self.ttls[client] = kw["ttl"]
        i = self.send(cmd)
        if wait:
            return await self.done(i, timeout)
        return i

    async def done(self, i, timeout=180):
        e = await self.wait_event(lambda e: e["ev"] == "done" and e["id"] == i, timeout)
        if e is None:
            self.auto_notes.append(f"driver command {i} did not finish within {timeout} s")
        return e

    async def acquire(self, client, lock, ttl=10000, **kw):
        return await self.lockcall("acquire", client, lock, ttl=ttl, **kw)

    async def release(self, client, lock, **kw):
        return await self.lockcall("release", client, lock, **kw)

    async def extend(self, client, lock, ttl=10000, **kw):
        return await self.lockcall("extend", client, lock, ttl=ttl, **kw)

    async def kill(self, *masters):
        for m in masters:
            await self.proxy.set_master_up(m, False)   # the proxy port refuses from now on, like the dead server
            self.up[m] = False
            self.act(action="kill_master", master=m, how="SIGKILL; its proxy ports stop listening")
            await kill_master(m)

    async def restart(self, *masters, wait_clients=()):
        for m in masters:
            since = len(self.devents)
            await start_master(m)
            await self.proxy.set_master_up(m, True)
            self.up[m] = True
            self.act(action="restart_master", master=m, how="new empty redis-server (no persistence); proxy ports listen again")
            for c in wait_clients:
                await self.wait_ready(c, m, since, timeout=15)

    async def sleep(self, ms):
        self.act(action="sleep", ms=ms)
        await asyncio.sleep(ms / 1000)

    async def admin(self, master, *args):
        reply = await rcmd(MASTER_PORTS[master], *args)
        self.act(action="admin_command", master=master, request=list(map(str, args)), reply=reply,
                 how="direct connection to the master, not through the proxy")
        return reply

    async def settle(self, quiet_ms=300, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            n = len(self.proxy.log) + len(self.devents)
            await asyncio.sleep(quiet_ms / 1000)
            if self.proxy.pending == 0 and n == len(self.proxy.log) + len(self.devents):
                return
        self.auto_notes.append("traffic did not settle")

    async def quit(self):
        i = self.send({"cmd": "quit"})
        e = await self.wait_event(lambda e: e["ev"] == "quit", 10)
        if e is None:
            self.auto_notes.append("redlock.quit() did not finish within 10 s; the driver was ended")
        try:
            await asyncio.wait_for(self.driver.wait(), 5)
        except asyncio.TimeoutError:
            self.driver.kill()
            await self.driver.wait()
        await asyncio.sleep(0.3)


# ---------------------------------------------------------------- situations

def lib_notes(major):
    if major >= 5:
        return ("redlock 5.0.0-beta.2 (ESM build, dist/esm/index.js) with ioredis 4.31.0: "
                "new Redlock([5 x new Redis(<proxy port>, '127.0.0.1')], settings); "
                "redlock.acquire(['locks:m'], ttl) / lock.extend(ttl) / lock.release().")
    return ("redlock 4.2.0 (redlock.js) with ioredis 4.31.0: "
            "new Redlock([5 x new Redis(<proxy port>, '127.0.0.1')], settings); "
            "redlock.lock('locks:m', ttl) / lock.extend(ttl) / lock.unlock().")


async def s_acquire_release(s):
    s.notes = ["Client A acquires locks:m (ttl 10000) on fresh masters (empty script cache) and releases it."]
    await s.open("A")
    await s.acquire("A", "A#1")
    await s.settle()
    await s.release("A", "A#1")


async def s_contention(s):
    s.notes = ["A acquires and holds; B (retryCount 2) tries and gives up; then A releases."]
    await s.open("A")
    await s.open("B", retryCount=2)
    await s.acquire("A", "A#1")
    await s.settle()
    await s.acquire("B", "B#1")
    await s.settle()
    await s.release("A", "A#1")


async def s_extend(s):
    s.notes = ["A acquires (ttl 10000), waits 1 s, extends to 10000, releases."]
    await s.open("A")
    await s.acquire("A", "A#1")
    await s.sleep(1000)
    await s.extend("A", "A#1", 10000)
    await s.settle()
    await s.release("A", "A#1")


async def s_one_master_down(s, ttl=10000, retry=0):
    s.notes = [f"Master 4 is SIGKILLed before the clients are created (its proxy port refuses connections, "
               f"like the dead server's). A (retryCount {retry}) acquires with ttl {ttl} as soon as its four other "
               f"connections are ready (ioredis has been retrying master 4 since the client was created), then "
               f"releases if it got the lock."]
    await s.kill(4)
    await s.open("A", settle=False, retryCount=retry)
    r = await s.acquire("A", "A#1", ttl=ttl)
    await s.settle()
    if r and r["result"] == "ok":
        await s.release("A", "A#1", timeout=300)
    await s.settle(quiet_ms=500)


async def s_one_master_down_ttl30s(s):
    await s_one_master_down(s, ttl=30000, retry=0)


async def s_one_master_killed_after_connect(s, ttl=10000, retry=0):
    s.notes = [f"A's clients connect to all five masters; then master 4 is SIGKILLed (the established connection "
               f"dies, ioredis reconnects and is refused). As soon as ioredis has reported the close, A (retryCount {retry}) acquires with ttl {ttl}; "
               f"then releases if it got the lock."]
    await s.open("A", retryCount=retry)
    since = len(s.devents)
    await s.kill(4)
    await s.wait_event(lambda e: e["ev"] == "ioredis" and e["client"] == "A" and e["master"] == 4
                       and e["event"] == "close", 5, since)
    r = await s.acquire("A", "A#1", ttl=ttl)
    await s.settle()
    if r and r["result"] == "ok":
        await s.release("A", "A#1", timeout=300)
    await s.settle(quiet_ms=500)


async def s_one_master_killed_after_connect_ttl30s(s):
    await s_one_master_killed_after_connect(s, ttl=30000, retry=0)


async def s_majority_down(s):
    s.notes = ["Masters 2, 3, 4 are SIGKILLed before the clients are created. A (retryCount 1) tries to acquire."]
    await s.kill(2, 3, 4)
    await s.open("A", settle=False, retryCount=1)
    await s.acquire("A", "A#1", timeout=400)
    await s.settle(quiet_ms=500)


async def s_restart_empty(s):
    s.notes = ["The classic Redlock safety violation without persistence. Masters 3 and 4 start out holding "
               "locks:m with a foreign value 'stale' (PX 2500, set directly: a left-over minority lock of a "
               "crashed client), so A's acquire wins on masters 0,1,2 only (3 votes = quorum). Master 2 is then "
               "SIGKILLed and restarted empty; after 'stale' has expired on 3,4, B (retryCount 2) acquires and "
               "wins on 2,3,4: A and B both hold the lock. Then A releases (only masters 0,1 still hold A's value), "
               "then B releases."]
    await s.open("A")
    await s.open("B", retryCount=2)
    await s.admin(3, "SET", RESOURCE, "stale", "PX", 2500)
    await s.admin(4, "SET", RESOURCE, "stale", "PX", 2500)
    t_set = time.monotonic()
    await s.acquire("A", "A#1")
    await s.settle()
    await s.kill(2)
    await s.sleep(100)
    await s.restart(2, wait_clients=("A", "B"))
    await s.settle()
    left = 2.6 - (time.monotonic() - t_set)
    if left > 0:
        await s.sleep(int(left * 1000) + 1)
    await s.admin(3, "EXISTS", RESOURCE)
    await s.admin(4, "EXISTS", RESOURCE)
    await s.acquire("B", "B#1")
    await s.settle()
    await s.release("A", "A#1")
    await s.settle()
    await s.release("B", "B#1")


async def s_validity_expired(s):
    s.notes = ["A acquires with ttl 100 (drift = round(0.01*100)+2 = 3 ms, so the lock is valid for 97 ms "
               "from the attempt's start). The proxy holds A's first acquire-script request to masters 0, 1, 2 "
               "for 150 ms before forwarding it (EVALSHA, so the NOSCRIPT reply comes back ~150 ms late and the "
               "EVAL follows at once); masters 3, 4 answer at once. Every master says yes, but the last yes "
               "arrives after the validity has passed. Later attempts are not delayed. A releases right after."]
    await s.open("A")
    shas = set(SCRIPT_SHAS[s.major].values())
    acq = SCRIPT_SHAS[s.major]["acquire"]
    s.proxy.delay_requests("A", [0, 1, 2], 150,
                           lambda a: (a[0].upper() == "EVALSHA" and a[1] == acq), count=1)
    s.act(action="proxy_hold", client="A", masters=[0, 1, 2], ms=150,
          what="A's next EVALSHA of the acquire script to each of these masters is held 150 ms before forwarding")
    await s.acquire("A", "A#1", ttl=100)
    await s.release("A", "A#1")
    del shas


async def s_extend_lost(s):
    s.notes = ["A acquires on all five (ttl 10000). Masters 2, 3, 4 are SIGKILLed and restarted empty, so A's "
               "key survives only on 0 and 1. A then extends (ttl 10000, A's default retryCount 10): the extend "
               "cannot reach a quorum. Then A releases."]
    await s.open("A")
    await s.acquire("A", "A#1")
    await s.settle()
    await s.kill(2, 3, 4)
    await s.sleep(100)
    await s.restart(2, 3, 4, wait_clients=("A",))
    await s.settle()
    await s.admin(0, "PTTL", RESOURCE)
    await s.extend("A", "A#1", 10000)
    await s.settle()
    await s.admin(0, "EXISTS", RESOURCE)
    await s.admin(1, "EXISTS", RESOURCE)
    await s.release("A", "A#1")


async def s_release_expired(s):
    s.notes = ["A acquires with ttl 200, waits 400 ms (the key has expired everywhere), then releases."]
    await s.open("A")
    await s.acquire("A", "A#1", ttl=200)
    await s.sleep(400)
    await s.release("A", "A#1")


async def s_options_retrycount_zero(s):
    s.notes = ["A holds the lock; B (constructed with default settings) tries once more with per-call options "
               "{retryCount: 0}: 4.x lockWithOptions('locks:m', 10000, {retryCount: 0}), 5.x "
               "acquire(['locks:m'], 10000, {retryCount: 0}). Then A releases."]
    await s.open("A")
    await s.open("B")
    await s.acquire("A", "A#1")
    await s.settle()
    await s.acquire("B", "B#1", options={"retryCount": 0})
    await s.settle()
    await s.release("A", "A#1")


async def s_inflight_master_restart(s):
    s.notes = ["A request is lost in flight: the proxy holds A's first acquire EVALSHA to master 4 for 500 ms; "
               "100 ms after the acquire call master 4 is SIGKILLed (the held request is dropped with the "
               "connection: it never reached the server) and 200 ms later restarted empty. ioredis reconnects and, "
               "with its default autoResendUnfulfilledCommands, sends the unanswered command again on the new "
               "connection. Then A releases."]
    await s.open("A")
    acq = SCRIPT_SHAS[s.major]["acquire"]
    s.proxy.delay_requests("A", [4], 500, lambda a: (a[0].upper() == "EVALSHA" and a[1] == acq), count=1)
    s.act(action="proxy_hold", client="A", masters=[4], ms=500,
          what="A's next EVALSHA of the acquire script to master 4 is held 500 ms before forwarding")
    i = await s.lockcall("acquire", "A", "A#1", wait=False, ttl=10000)
    await asyncio.sleep(0.1)
    await s.kill(4)
    await asyncio.sleep(0.2)
    await s.restart(4)
    await s.done(i)
    await s.settle()
    await s.admin(4, "PTTL", RESOURCE)
    await s.release("A", "A#1")


SITUATIONS = {
    "acquire_release": s_acquire_release,
    "contention": s_contention,
    "extend": s_extend,
    "one_master_down": s_one_master_down,
    "one_master_down_ttl30s": s_one_master_down_ttl30s,
    "one_master_killed_after_connect": s_one_master_killed_after_connect,
    "one_master_killed_after_connect_ttl30s": s_one_master_killed_after_connect_ttl30s,
    "majority_down": s_majority_down,
    "restart_empty": s_restart_empty,
    "validity_expired": s_validity_expired,
    "extend_lost": s_extend_lost,
    "release_expired": s_release_expired,
    "options_retrycount_zero": s_options_retrycount_zero,
    "inflight_master_restart": s_inflight_master_restart,
}
MONITORED = {"acquire_release"}


# ---------------------------------------------------------------- scripts (read from the installed source)

SCRIPTS = {}
SCRIPT_SHAS = {}


def load_scripts(major, inst):
    import hashlib
    if major >= 5:
        src = (inst / "node_modules/redlock/dist/esm/index.js").read_text()
        names = {"acquire": "ACQUIRE_SCRIPT", "extend": "EXTEND_SCRIPT", "release": "RELEASE_SCRIPT"}
        pat = r"const %s = `(.*?)`;"
    else:
        src = (inst / "node_modules/redlock/redlock.js").read_text()
        names = {"acquire": "lockScript", "extend": "extendScript", "release": "unlockScript"}
        pat = r"const %s = `(.*?)`;"
    SCRIPTS[major] = {k: re.search(pat % v, src, re.S).group(1) for k, v in names.items()}
    SCRIPT_SHAS[major] = {k: hashlib.sha1(v.encode()).hexdigest() for k, v in SCRIPTS[major].items()}


# ---------------------------------------------------------------- output

def r1(ns, t0):
    return round((ns - t0) / 1e6, 1)


def build_trace(s, redis_ver, versions, monitor_note):
    major = s.major
    scripts, shas = SCRIPTS[major], SCRIPT_SHAS[major]
    body_name = {v: f"<{k} script>" for k, v in scripts.items()}
    sha_name = {v: k for k, v in shas.items()}

    # lock values -> placeholders: the n-th distinct 32-hex value a client sends is its n-th acquire
    acquires = {}
    for e in s.devents:
        if e["ev"] == "call" and e["action"] == "acquire":
            acquires.setdefault(e["client"], []).append(e["lock"])
    seen = {}
    placeholder = {}
    reqs = sorted((e for e in s.proxy.log if e["kind"] == "request"), key=lambda e: e["t_ns"])
    for e in reqs:
        for a in e["args"]:
            if HEX32.match(a) and a not in placeholder:
                lst = seen.setdefault(e["label"], [])
                lst.append(a)
                names = acquires.get(e["label"], [])
                name = names[len(lst) - 1] if len(lst) <= len(names) else f"{e['label']}#?{len(lst)}"
                placeholder[a] = f"<value {name}>"
    for e in s.devents:
        if e["ev"] == "done" and e.get("value"):
            want = f"<value {e['lock']}>"
            got = placeholder.get(e["value"])
            if got is None:
                placeholder[e["value"]] = want
            elif got != want:
                s.auto_notes.append(f"value placeholder mismatch: {got} vs {want}")

    def norm_args(args):
        out = []
        for i, a in enumerate(args):
            if a in body_name and i == 1:
                out.append(body_name[a])
            else:
                out.append(placeholder.get(a, a))
        return out

    events = []
    by_idx = {}
    for idx, e in enumerate(s.proxy.log):
        base = {"t": r1(e["t_ns"], s.t0), "client": e["label"], "master": e["master"], "conn": e["conn"]}
        if e["kind"] == "request":
            ev = dict(base, request=norm_args(e["args"]))
            cmd = e["args"][0].upper() if e["args"] else ""
            if cmd == "INFO":
                ev["handshake"] = True
            if cmd == "QUIT":
                ev["teardown"] = True
            if cmd in ("EVALSHA", "EVAL"):
                ev["script"] = sha_name.get(e["args"][1]) if cmd == "EVALSHA" else \
                    {v: k for k, v in scripts.items()}.get(e["args"][1])
            if e.get("held_ms"):
                ev["held_by_proxy_ms"] = e["held_ms"]
                ev["forwarded_t"] = r1(e["forwarded_t_ns"], s.t0)
            by_idx[idx] = ev
        elif e["kind"] == "reply":
            rep = e["reply"]
            req = by_idx.get(e.get("req"))
            ev = dict(base)
            if req is not None and req.get("handshake"):
                ev["handshake"] = True
                if "bulk" in rep:
                    rep = {"bulk": "<INFO reply>"}
            if req is not None and req.get("teardown"):
                ev["teardown"] = True
            ev["reply"] = rep
            if e.get("unsolicited"):
                ev["unsolicited"] = True
        else:
            ev = dict(base, connection=e["event"])
            for k in ("by", "unanswered", "error"):
                if k in e and e[k] not in (None, 0):
                    ev[k] = e[k]
        events.append((e["t_ns"], ev))
    for e in s.devents:
        t = r1(e["t_ns"], s.t0)
        if e["ev"] == "call":
            ev = {"t": t, "client": e["client"], "call": e["action"], "lock": e["lock"]}
        elif e["ev"] == "done":
            ev = {"t": t, "client": e["client"], "action": e["action"], "lock": e["lock"], "result": e["result"]}
            for k in ("attempts", "expiration_minus_call", "expiration_minus_done", "valid_at_done",
                      "same_object", "resolved_with", "error"):
                if k in e:
                    ev[k] = e[k]
            call = next(c for c in s.devents if c["ev"] == "call" and c["id"] == e["id"])
            ev["duration_ms"] = round((e["t_ns"] - call["t_ns"]) / 1e6, 1)
        elif e["ev"] == "stats":
            ev = {"t": t, "client": e["client"], "stats_of": next(
                f"{c['action']} {c['lock']}" for c in s.devents if c["ev"] == "call" and c["id"] == e["id"]),
                "attempt_stats": e["stats"]}
        elif e["ev"] == "ioredis":
            ev = {"t": t, "client": e["client"], "master": e["master"], "ioredis": e["event"]}
            if "delay" in e:
                ev["delay"] = e["delay"]
            if "error" in e:
                ev["error"] = e["error"]
        elif e["ev"] == "redlock_error":
            ev = {"t": t, "client": e["client"], "library_event": "error" if major >= 5 else "clientError",
                  "error": e["error"]}
        elif e["ev"] == "quit_timeout":
            ev = {"t": t, "driver": "redlock.quit() had not finished after 3 s (a QUIT queued behind commands "
                                    "for a dead master); every ioredis client was disconnect()ed"}
        else:
            continue
        events.append((e["t_ns"], ev))
    for a in s.actions:
        ev = {"t": r1(a["t_ns"], s.t0)}
        ev.update({k: v for k, v in a.items() if k != "t_ns"})
        events.append((a["t_ns"], ev))
    events.sort(key=lambda x: x[0])
    events = [ev for _, ev in events]

    notes = [lib_notes(major)] + s.notes + getattr(s, "observed", [])
    notes.append("Lock values are 16 random bytes as 32 lowercase hex chars (crypto.randomBytes(16).toString('hex')); "
                 "'<value X#n>' stands for the value of client X's n-th acquire call (its extend reuses it).")
    notes.append("EVAL script bodies are written '<acquire script>', '<release script>', '<extend script>' "
                 "(exact texts under 'scripts'). INFO is ioredis's ready check on every new connection "
                 "('handshake': true, reply shown as '<INFO reply>'); QUIT comes from redlock.quit() at the end "
                 "('teardown': true).")
    notes.append("t: ms since the situation's first command, CLOCK_MONOTONIC for proxy, driver and recorder "
                 "alike; proxy events are stamped when the whole message has been read (requests before they "
                 "go on to the server, replies before they go on to the client). 'conn' numbers the "
                 "connections of one client to one master. Driver 'call'/'action' events are the library calls "
                 "and their outcome; 'ioredis' events are the ioredis client's connection events; "
                 "'library_event' is the Redlock object's error event.")
    if monitor_note:
        notes.append(monitor_note)
    notes += s.auto_notes
    trace = {
        "situation": s.full_name,
        "library": {"name": "redlock", "version": versions["redlock"].lstrip("v"), "ioredis": versions["ioredis"]},
        "redis": redis_ver,
        "masters": 5,
        "resource": RESOURCE,
        "settings": {c: dict(v, ttl=s.ttls.get(c)) for c, v in s.settings.items()},
        "scripts": {"acquire": scripts["acquire"], "release": scripts["release"], "extend": scripts["extend"],
                    "acquire_sha1": shas["acquire"], "release_sha1": shas["release"], "extend_sha1": shas["extend"]},
        "notes": notes,
        "rounds": rounds_of(events),
        "events": events,
    }
    return trace


def rounds_of(events):
    """Summary derived from the events: per client, the batches of script calls ('rounds'); a
    round is one script sent to the masters together (an EVAL after a NOSCRIPT belongs to the
    EVALSHA's round). start = first request, end = last reply of the round on the wire."""
    out = {}
    pending = {}   # (client, master, conn) -> [round, ...] waiting for replies, in order
    for ev in events:
        if "conn" not in ev:
            continue
        if "request" in ev and ev.get("script"):
            c = ev["client"]
            rs = out.setdefault(c, [])
            cur = rs[-1] if rs else None
            fallback = ev["request"][0].upper() == "EVAL" and cur is not None and \
                cur["_noscript"].get(ev["master"])
            if fallback:
                cur["_noscript"][ev["master"]] = False
                cur["eval_fallback"].append(ev["master"])
            elif cur is None or cur["script"] != ev["script"] or ev["master"] in cur["replies"] or \
                    ev["master"] in cur["_sent"]:
                cur = {"script": ev["script"], "start": ev["t"], "end": None, "replies": {},
                       "eval_fallback": [], "_noscript": {}, "_sent": set()}
                rs.append(cur)
            cur["_sent"].add(ev["master"])
            pending.setdefault((c, ev["master"], ev["conn"]), []).append(cur)
        elif "reply" in ev and not ev.get("handshake") and not ev.get("teardown"):
            q = pending.get((ev["client"], ev["master"], ev["conn"]))
            if not q:
                continue
            cur = q.pop(0)
            rep = ev["reply"]
            if "error" in rep and rep["error"].startswith("NOSCRIPT"):
                cur["_noscript"][ev["master"]] = True
            else:
                cur["replies"][ev["master"]] = rep.get("integer", rep)
            cur["end"] = ev["t"]
    result = {}
    for c, rs in out.items():
        lst = []
        prev_end = None
        for r in rs:
            d = {"script": r["script"], "start": r["start"], "end": r["end"],
                 "replies": {str(k): v for k, v in sorted(r["replies"].items())}}
            if r["eval_fallback"]:
                d["eval_fallback_on"] = sorted(r["eval_fallback"])
            missing = sorted(r["_sent"] - set(r["replies"]))
            if missing:
                d["unanswered_on"] = missing
            if prev_end is not None:
                d["gap_after_previous_end"] = round(r["start"] - prev_end, 1)
            prev_end = r["end"] if r["end"] is not None else prev_end
            lst.append(d)
        result[c] = lst
    return result


# ---------------------------------------------------------------- MONITOR cross-check

async def start_monitors():
    procs = []
    for i, port in enumerate(MASTER_PORTS):
        f = open(WORK / f"monitor-{i}.log", "w")
        p = await asyncio.create_subprocess_exec("redis-cli", "-p", str(port), "MONITOR", stdout=f,
                                                 stderr=subprocess.STDOUT)
        procs.append((p, f))
    await asyncio.sleep(0.3)
    return procs


async def stop_monitors(procs):
    for p, f in procs:
        p.send_signal(signal.SIGTERM)
        await p.wait()
        f.close()


MON_LINE = re.compile(r'^[\d.]+ \[(\d+) ([^\]]+)\] (.*)$')
MON_ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')
MON_ESC = {"n": "\n", "r": "\r", "t": "\t", "a": "\a", "b": "\b", '"': '"', "\\": "\\"}


def monitor_unrepr(s):
    """Undo redis' sdscatrepr quoting as MONITOR prints arguments."""
    out, i = bytearray(), 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n == "x":
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            out += MON_ESC.get(n, n).encode()
            i += 2
            continue
        out += c.encode()
        i += 1
    return out.decode("utf-8", errors="backslashreplace")


def monitor_check(s):
    """Compare, per master, the commands MONITOR saw from client connections with the requests
    the proxy logged for that master (same order, same arguments)."""
    results = []
    for m in range(5):
        lines = (WORK / f"monitor-{m}.log").read_text().splitlines()
        seen, lua = [], 0
        for ln in lines:
            mm = MON_LINE.match(ln)
            if not mm:
                continue
            who, rest = mm.group(2), mm.group(3)
            args = [monitor_unrepr(a) for a in MON_ARG.findall(rest)]
            if who == "lua":
                lua += 1
                continue
            seen.append(args)
        proxied = [e["args"] for e in sorted((e for e in s.proxy.log if e["kind"] == "request" and e["master"] == m),
                                             key=lambda e: e["t_ns"])]
        same = seen == proxied
        results.append((m, len(proxied), len(seen), lua, same))
    ok = all(r[4] for r in results)
    return ok, ("MONITOR cross-check (redis-cli -p 700x MONITOR on all five masters during this situation): "
                + ("the requests the proxy logged and the commands MONITOR printed agree exactly (same "
                   "commands, same arguments byte for byte, same order) on every master: " if ok else "DISAGREE: ")
                + "; ".join(f"master {m}: {n} requests logged by the proxy, {k} client commands in MONITOR "
                            f"(plus {lua} commands run from Lua){'' if same else ' MISMATCH'}"
                            for m, n, k, lua, same in results) + ".")


# ---------------------------------------------------------------- main

async def run(name, major, inst, versions):
    full = ("redlock5_" if major >= 5 else "redlock_") + name
    for i in range(5):
        await kill_master(i)
    for i in range(5):
        await start_master(i)
    ver = await redis_version()
    proxy = redisproxy.RedisProxy(LABEL_PORTS, MASTER_PORTS)
    await proxy.start()
    monitors = await start_monitors() if name in MONITORED else None
    s = Situation(full, major, proxy, 0)
    s.full_name = full
    await s.start_driver(inst)
    s.t0 = time.monotonic_ns()
    monitor_note = None
    try:
        await SITUATIONS[name](s)
        await s.settle()
        if major >= 5:
            # 5.x resolves on a quorum; the per-attempt stats (all votes) may come much later
            want = sum(1 for e in s.devents if e["ev"] == "done" and
                       (e["result"] == "ok" or "attempts" in (e.get("error") or {})))
            got = await s.wait_event(lambda e: sum(1 for x in s.devents if x["ev"] == "stats") >= want, 150)
            if got is None:
                s.auto_notes.append("not all 5.x attempt stats arrived within 150 s")
            await s.settle()
    finally:
        await s.quit()
        await asyncio.sleep(0.2)
        if monitors:
            await stop_monitors(monitors)
            ok, monitor_note = monitor_check(s)
        await proxy.close()
        for i in range(5):
            await kill_master(i)
    trace = build_trace(s, ver, versions, monitor_note)
    TRACES.mkdir(parents=True, exist_ok=True)
    target = TRACES / f"{full}.json"
    target.write_text(json.dumps(trace, indent=1, ensure_ascii=False) + "\n")
    print(f"recorded {target.relative_to(ROOT)}: {len(trace['events'])} events", flush=True)


async def amain(argv):
    majors = [4]
    if "--v5" in argv:
        majors = [5]
    if "--all" in argv:
        majors = [4, 5]
    names = [a for a in argv if not a.startswith("--")]
    for major in majors:
        inst = ensure_install(major)
        load_scripts(major, inst)
        versions = {
            "redlock": json.loads((inst / "node_modules/redlock/package.json").read_text())["version"],
            "ioredis": json.loads((inst / "node_modules/ioredis/package.json").read_text())["version"],
        }
        todo = names or list(SITUATIONS)
        for n in todo:
            n = re.sub(r"^redlock5?_", "", n)
            await run(n, major, inst, versions)


if __name__ == "__main__":
    asyncio.run(amain(sys.argv[1:]))
