#!/usr/bin/env python3
"""Records the behaviour of a real 3-server ZooKeeper 3.8 ensemble on 127.0.0.1, for Lockstep.

Usage: tests/ensemble/record.py [SCENARIO ...]     (default: every scenario; `--list` lists them)
Env:   ZK_TICK=2000 (tickTime in ms for every server; zoo_sample.cfg's value by default)

Each scenario gets a fresh ensemble (ensemble.py: Debian's `zookeeper` 3.8 via zk-ensemble.sh,
a TCP proxy on every server-to-server link) and writes tests/ensemble/recordings/NAME.json:
  config     tickTime, initLimit, syncLimit, server count, client ports, zoo.cfg of server 1
  clients    every kazoo 2.11 client: connect string order, requested session timeout
  events     in order; each has `t_ms` (wall-clock ms since the scenario started: NOT compared)
             and a `kind`: srvr (the `srvr` four-letter word of every live server: Mode, Zxid,
             or its exact answer when not serving), connect, client_state (kazoo listener:
             CONNECTED/SUSPENDED/LOST, with the server the client is connected to and its session
             id), kazoo_log (the client's own log lines), op (request and reply: the reply
             header's zxid, stat with czxid/mzxid/pzxid/ephemeralOwner, or the error name),
             view (every serving server's answer to the same read, through a probe client
             connected to that server only), notification, kill, cut, heal, note
  txn_logs   every server's transaction log, decoded by ZooKeeper's TxnLogToolkit
  server_log the servers' log lines that matter (role changes, refusals, expiries)
  findings   values derived from the events above, which FACTS.md cites
zxids are written as {"hex", "epoch", "counter"}; session ids as {"hex", "creator_server"}.
Probe clients (one per server, hosts = that server only, session timeout 40 s) are opened right
after the ensemble first serves, so their createSession transactions come first in the log.
"""
import json
import logging
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException
from kazoo.handlers.threading import KazooTimeoutError
from kazoo.protocol import connection as kconn
from kazoo.protocol.serialization import Watch
from kazoo.protocol.states import KazooState

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ensemble import CLIENT, Ensemble, session_fields, zxid_fields  # noqa: E402

HERE = Path(__file__).resolve().parent
OUT = HERE / "recordings"
TICK = int(__import__("os").environ.get("ZK_TICK", "2000"))
CLIENT_PROXY = 22600
RETRY = dict(max_tries=-1, delay=0.1, backoff=2, max_delay=2.0)
EVENT_NAMES = {1: "NODE_CREATED", 2: "NODE_DELETED", 3: "NODE_DATA_CHANGED", 4: "NODE_CHILDREN_CHANGED"}
LOG_PATTERNS = (r"Peer state changed: (leading|following|looking)$|synchronization - (trunc|diff|snap)|LEADING - LEADER ELECTION TOOK|FOLLOWING - LEADER "
                r"ELECTION TOOK|Refusing session|Expiring session|Invalid session|Revalidating|"
                r"Closing session|closing session|Exception when following|shutdown called|"
                r"Not sufficient number of|Shutting down|Established session|Exception causing close|"
                r"Processed session termination|Created new input stream|Creating new log file|"
                r"session .* expired|Unable to read additional data|There is no|Getting a diff|"
                r"Getting a snapshot|Synchronizing with Leader|Learner received|Sending [A-Z]+|"
                r"leader and follower are in sync|TRUNC|DIFF|SNAP")

RUN = None  # the scenario being recorded (the kazoo patches below report to it)

_orig_read_response = kconn.ConnectionHandler._read_response


HEADER_ZXID = {}  # id(kazoo client) -> zxid of the last reply header read off its socket


def _read_response(self, header, buffer, offset):
    # Each scenario has at most one request in flight per client, so the last reply header's
    # zxid is the zxid of the reply to the request that just completed (kazoo's own last_zxid
    # ignores a header zxid <= 0 and is not per request).
    HEADER_ZXID[id(self.client)] = header.zxid
    return _orig_read_response(self, header, buffer, offset)


kconn.ConnectionHandler._read_response = _read_response
_orig_read_watch_event = kconn.ConnectionHandler._read_watch_event


def _read_watch_event(self, buffer, offset):
    watch, _ = Watch.deserialize(buffer, offset)
    if RUN is not None:
        RUN.ev("notification", client=RUN.name_of(self.client), type=EVENT_NAMES.get(watch.type, str(watch.type)),
               path=watch.path)
    return _orig_read_watch_event(self, buffer, offset)


kconn.ConnectionHandler._read_watch_event = _read_watch_event


class EventLog(logging.Handler):
    def __init__(self, run, name):
        super().__init__(logging.INFO)
        self.run, self.cname = run, name

    def emit(self, record):
        self.run.ev("kazoo_log", client=self.cname, level=record.levelname, message=record.getMessage())


def stat(st, run=None):
    if st is None:
        return None
    out = {"czxid": zxid_fields(st.czxid), "mzxid": zxid_fields(st.mzxid), "pzxid": zxid_fields(st.pzxid),
           "version": st.version, "cversion": st.cversion, "numChildren": st.numChildren,
           "dataLength": st.dataLength, "ephemeralOwner": None}
    if st.ephemeralOwner:
        out["ephemeralOwner"] = session_fields(st.ephemeralOwner)
        if run is not None:
            out["ephemeralOwner"]["client"] = run.owner_name(st.ephemeralOwner)
    return out


class Run:
    def __init__(self, name, description):
        self.name, self.description = name, description
        self.e = Ensemble(f"/tmp/lockstep-ens/{name}", tick=TICK)
        self.t0 = time.monotonic()
        self.events, self.lock = [], threading.Lock()
        self.clients, self.client_info, self.port_label = {}, {}, {}
        self.probes = {}
        self.findings = {}
        self.sessions = {}  # session id -> client name
        self.next_proxy = CLIENT_PROXY
        self.finished = False

    # ---- bookkeeping -------------------------------------------------------------------------
    def ms(self):
        return round((time.monotonic() - self.t0) * 1000)

    def ev(self, kind, **kw):
        if self.finished:
            return {"i": -1, "t_ms": self.ms(), "kind": kind}
        with self.lock:
            e = {"i": len(self.events), "t_ms": self.ms(), "kind": kind, **kw}
            self.events.append(e)
        return e

    def note(self, text):
        self.ev("note", text=text)

    def name_of(self, c):
        for n, k in {**self.clients, **{f"probe{i}": p for i, p in self.probes.items()}}.items():
            if k is c:
                return n
        return "?"

    def owner_name(self, sid):
        return self.sessions.get(sid)

    # ---- ensemble ----------------------------------------------------------------------------
    def start(self):
        self.e.start_all()
        leader = self.e.wait_serving(timeout=90)
        self.ev("ensemble_serving", leader=leader)
        self.srvr("after start")
        for i in self.e.ids:
            self.probes[i] = self.make_client(f"probe{i}", [i], timeout=20 * TICK / 1000, probe=True)
        self.srvr("after probes connected")
        return leader

    def srvr(self, label):
        return self.ev("srvr", label=label, servers=self.e.srvr_all())

    def serving(self):
        return [s["server"] for s in self.e.srvr_all() if s.get("mode") in ("leader", "follower")]

    def wait_caught_up(self, ids=None, timeout=15):
        """Waits until the given serving servers report one and the same Zxid. A leader that has
        not committed anything in its epoch yet reports (epoch << 32) while its followers still
        report the last zxid of the previous epoch, so such a leader is left out."""
        deadline = time.monotonic() + timeout
        while True:
            ss = [s for s in self.e.srvr_all() if s.get("mode") and (ids is None or s["server"] in ids)]
            zs = {s["zxid"]["hex"] for s in ss if not (s["mode"] == "leader" and s["zxid"]["counter"] == 0)}
            if ss and len(zs) <= 1:
                return {s["server"]: s["zxid"]["hex"] for s in ss}
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)

    def kill(self, i):
        e = self.ev("kill", server=i, signal="SIGKILL")
        self.e.kill(i)
        return e

    def cut(self, pred, mode, what):
        tags = self.e.proxy.set(pred, mode)
        self.ev("cut" if mode != "open" else "heal", what=what, mode=mode, links=tags)

    # ---- clients -----------------------------------------------------------------------------
    def make_client(self, name, targets, timeout=10.0, probe=False):
        """targets: server ids, or ("proxy", id) for a cuttable client link to server id."""
        hosts, labels = [], []
        for t in targets:
            if isinstance(t, tuple):
                port = self.next_proxy
                self.next_proxy += 1
                self.e.proxy.link(("client", name, t[1]), port, CLIENT + t[1])
                self.port_label[port] = f"proxy->s{t[1]}"
            else:
                port = CLIENT + t
                self.port_label[port] = f"s{t}"
            hosts.append(f"127.0.0.1:{port}")
            labels.append(self.port_label[port])
        logger = logging.getLogger(f"kz.{self.name}.{name}")
        logger.propagate = False
        logger.setLevel(logging.INFO)
        logger.addHandler(EventLog(self, name))
        c = KazooClient(hosts=",".join(hosts), timeout=timeout, randomize_hosts=False, connection_retry=RETRY,
                        logger=logger)
        c.add_listener(lambda state, c=c, name=name: self.on_state(c, name, state))
        self.client_info[name] = {"hosts": labels, "session_timeout_requested_ms": int(timeout * 1000),
                                  "probe": probe, "connection_retry": RETRY}
        if not probe:
            self.clients[name] = c
        t = self.ms()
        c.start(timeout=30)
        sid = c.client_id[0]
        self.sessions[sid] = name
        self.client_info[name]["session"] = session_fields(sid)
        self.client_info[name]["session_timeout_negotiated_ms"] = c._session_timeout
        self.ev("connect", client=name, hosts=labels, session=session_fields(sid), connected_to=self.where(c),
                negotiated_timeout_ms=c._session_timeout, started_at_ms=t)
        return c

    def where(self, c):
        try:
            return self.port_label.get(c._connection._socket.getpeername()[1])
        except Exception:
            return None

    def on_state(self, c, name, state):
        sid = c._session_id
        self.ev("client_state", client=name, state=str(state), server=self.where(c) if state == KazooState.CONNECTED else None,
                session=session_fields(sid) if sid else None)

    def close(self, name):
        c = self.clients.pop(name)
        c.stop()
        c.close()
        self.ev("close", client=name)

    def wait_state(self, name, state, timeout=40):
        c = self.clients[name]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if c.state == state:
                return True
            time.sleep(0.02)
        self.note(f"{name} not {state} after {timeout}s (state {c.state})")
        return False

    # ---- requests ----------------------------------------------------------------------------
    def call(self, cname, kind, path, *args, timeout=15, record=True, client=None, **kw):
        c = client or (self.probes[int(cname[5:])] if cname.startswith("probe") else self.clients[cname])
        fn = getattr(c, kind + "_async")
        t = self.ms()
        out = {"client": cname, "op": kind, "path": path, "sent_ms": t}
        if args:
            out["args"] = [a.decode() if isinstance(a, bytes) else a for a in args]
        out.update({k: v for k, v in kw.items() if k != "watch"})
        if kw.get("watch"):
            out["watch"] = True
        HEADER_ZXID.pop(id(c), None)
        try:
            ar = fn(path, *args, **kw)
            value = ar.get(timeout=timeout)
            out["ok"] = True
            out["result"] = self.render(kind, value)
        except KazooTimeoutError:
            ar = None
            out["ok"] = False
            out["err"] = f"no reply within {timeout}s"
        except KazooException as e:
            out["ok"] = False
            out["err"] = type(e).__name__
        hz = HEADER_ZXID.get(id(c))
        out["reply_zxid"] = zxid_fields(hz) if hz and hz > 0 else hz
        out["server"] = self.where(c)
        if record:
            self.ev("op", **out)
        return out

    def render(self, kind, value):
        if kind == "create" and isinstance(value, str):
            return {"path": value}
        if kind == "create":
            path, st = value
            return {"path": path, "stat": stat(st, self)}
        if kind == "get":
            return {"data": None if value[0] is None else value[0].decode(), "stat": stat(value[1], self)}
        if kind in ("exists", "set"):
            return {"stat": stat(value, self)}
        if kind == "get_children":
            return {"children": sorted(value)}
        return {"value": value if isinstance(value, (str, int, bool, type(None))) else repr(value)}

    def view(self, path, label, wait=True):
        """Every serving server's answer to exists(path), each through its own probe client."""
        ids = self.serving()
        caught = self.wait_caught_up(ids) if wait else None
        answers = {}
        for i in ids:
            p = self.probes.get(i)
            deadline = time.monotonic() + 20
            while p is not None and p.state != KazooState.CONNECTED and time.monotonic() < deadline:
                time.sleep(0.02)
            if p is None or p.state != KazooState.CONNECTED:
                answers[str(i)] = {"stat": None, "err": f"probe not connected ({p.state if p else None})"}
                continue
            r = self.call(f"probe{i}", "exists", path, record=False, timeout=5)
            answers[str(i)] = {"stat": (r.get("result") or {}).get("stat"), "reply_zxid": r["reply_zxid"],
                               **({"err": r["err"]} if not r["ok"] else {})}
        return self.ev("view", label=label, path=path, waited_for_equal_zxid=bool(caught), answers=answers)

    # ---- output ------------------------------------------------------------------------------
    def finish(self, error=None):
        self.finished = True  # the teardown's own state changes are not part of the recording
        for c in list(self.clients.values()) + list(self.probes.values()):
            try:
                c._stopped.set()
                c.close()
            except Exception:
                pass
        self.e.stop_all()
        txns = {str(i): self.e.txns(i) for i in self.e.ids}
        logs = {str(i): self.e.log_lines(i, LOG_PATTERNS) for i in self.e.ids}
        out = {"scenario": self.name, "description": self.description, "config": self.e.config(),
               "clients": self.client_info, "findings": self.findings, "events": self.events,
               "txn_logs": txns, "server_log": logs,
               "not_compared": ["t_ms", "sent_ms", "started_at_ms", "server_log (timestamps, wording)",
                                "session id bits below the top byte", "findings.*_ms"],
               "error": error}
        OUT.mkdir(exist_ok=True)
        path = OUT / f"{self.name}.json"
        path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
        print(f"recorded {path.relative_to(HERE.parent.parent)}" + (f" (ERROR: {error})" if error else ""), flush=True)


def txn_by_type(run, server, typ):
    return [t for t in run.e.txns(server) if t["type"] == typ]


def first_state_after(run, client, state, after_i):
    for e in run.events:
        if e["i"] > after_i and e["kind"] == "client_state" and e["client"] == client and e["state"] == state:
            return e
    return None


# ==== scenarios ===================================================================================

def write_via_follower(run):
    L = run.start()
    F = [i for i in run.e.ids if i != L]
    run.findings["leader"] = L
    c1 = run.make_client("C1", [F[0]])
    sid = c1.client_id[0]
    run.findings["C1_server"] = F[0]
    run.findings["C1_session_creator_byte"] = sid >> 56
    run.srvr("after C1 connected")
    r = run.call("C1", "create", "/a", b"v1", include_data=True)
    run.findings["create_reply_zxid"] = r["reply_zxid"]
    run.findings["create_stat_czxid"] = r["result"]["stat"]["czxid"]
    run.srvr("right after the create reply (followers may not have applied yet)")
    v = run.view("/a", "each server's exists(/a) once all report the same Zxid")
    run.findings["views_czxid"] = {k: a["stat"]["czxid"]["hex"] for k, a in v["answers"].items()}
    run.srvr("after view")
    r = run.call("C1", "set", "/a", b"v2")
    run.findings["set_reply_zxid"] = r["reply_zxid"]
    v = run.view("/a", "after setData")
    run.findings["views_mzxid"] = {k: a["stat"]["mzxid"]["hex"] for k, a in v["answers"].items()}
    r = run.call("C1", "get", "/a")
    run.findings["read_reply_zxid_is_server_last_zxid"] = r["reply_zxid"]
    c2 = run.make_client("C2", [L])
    run.findings["C2_server"] = L
    run.findings["C2_session_creator_byte"] = c2.client_id[0] >> 56
    r = run.call("C2", "create", "/b", b"", include_data=True)
    run.findings["C2_create_reply_zxid"] = r["reply_zxid"]
    run.close("C1")
    run.wait_caught_up()
    run.srvr("after C1 closed")
    logs = {str(i): run.e.txns(i) for i in run.e.ids}
    cs = [t for t in logs[str(L)] if t["type"] == "createSession" and int(t["session"], 16) == sid]
    run.findings["C1_createSession_txn"] = cs[0] if cs else None
    run.findings["C1_closeSession_txn"] = next((t for t in logs[str(L)] if t["type"] == "closeSession"
                                                and int(t["session"], 16) == sid), None)
    run.findings["txn_logs_identical_on_all_servers"] = all(
        [t["zxid"]["hex"] for t in logs[k]] == [t["zxid"]["hex"] for t in logs[str(L)]] for k in logs)


def _leader_killed(run, on_leader):
    L = run.start()
    F = [i for i in run.e.ids if i != L]
    run.findings["old_leader"] = L
    hosts = [L] + F if on_leader else F + [L]
    c1 = run.make_client("C1", hosts)
    sid = c1.client_id[0]
    run.findings["C1_connected_to"] = run.where(c1)
    lock = c1.Lock("/lock", "C1")
    t = run.ms()
    got = lock.acquire(timeout=10)
    node = f"/lock/{lock.node}"
    run.ev("lock_acquire", client="C1", acquired=got, node=node, started_ms=t)
    run.findings["lock_node"] = node
    v = run.view(node, "lock node before the kill")
    run.findings["owner_before"] = {k: (a["stat"] or {}).get("ephemeralOwner", {}).get("hex") for k, a in v["answers"].items()}
    before = run.srvr("before the kill")
    old_epoch = next(s["zxid"]["epoch"] for s in before["servers"] if s["server"] == L)
    last_before = max(s["zxid"]["counter"] for s in before["servers"] if s["server"] == L)
    run.findings["old_epoch"] = old_epoch
    run.findings["last_zxid_before_kill"] = next(s["zxid"] for s in before["servers"] if s["server"] == L)
    kill = run.kill(L)
    kill_i, t_kill = kill["i"], kill["t_ms"]
    NL = run.e.wait_serving(F, timeout=60)
    t_serving = run.ms()
    run.ev("ensemble_serving", leader=NL)
    run.findings["new_leader"] = NL
    run.findings["election_ms"] = t_serving - t_kill
    run.srvr("after the election")
    run.wait_state("C1", KazooState.CONNECTED, timeout=40)
    sus = first_state_after(run, "C1", "SUSPENDED", kill_i)
    con = first_state_after(run, "C1", "CONNECTED", kill_i)
    run.findings["C1_transitions_after_kill"] = [e["state"] for e in run.events if e["i"] > kill_i and
                                                 e["kind"] == "client_state" and e["client"] == "C1"]
    run.findings["C1_suspended_after_ms"] = sus and sus["t_ms"] - t_kill
    run.findings["C1_reconnected_after_ms"] = con and con["t_ms"] - t_kill
    run.findings["C1_reconnected_to"] = con and con["server"]
    run.findings["C1_session_unchanged"] = c1.client_id[0] == sid
    run.findings["C1_lost"] = first_state_after(run, "C1", "LOST", kill_i) is not None
    r = run.call("C1", "create", "/after-election", b"", include_data=True)
    run.findings["first_write_after_election_reply_zxid"] = r["reply_zxid"]
    run.srvr("after the first write of the new epoch")
    v = run.view(node, "lock node after the election, on every remaining server")
    run.findings["owner_after"] = {k: (a["stat"] or {}).get("ephemeralOwner", {}).get("hex") for k, a in v["answers"].items()}
    run.findings["czxid_after"] = {k: (a["stat"] or {}).get("czxid", {}).get("hex") for k, a in v["answers"].items()}
    c2 = run.make_client("C2", [NL])
    lock2 = c2.Lock("/lock", "C2")
    t = run.ms()
    try:
        got2 = lock2.acquire(timeout=3)
    except KazooException as e:
        got2 = type(e).__name__
    run.ev("lock_acquire", client="C2", acquired=got2, node=f"/lock/{lock2.node}" if lock2.node else None,
           started_ms=t, timeout_s=3)
    run.findings["C2_acquired_while_C1_holds"] = got2
    run.call("C2", "get_children", "/lock")
    lock.release()
    run.ev("lock_release", client="C1", node=node)
    t = run.ms()
    got2 = lock2.acquire(timeout=10)
    run.ev("lock_acquire", client="C2", acquired=got2, node=f"/lock/{lock2.node}", started_ms=t, timeout_s=10)
    run.findings["C2_acquired_after_C1_release"] = got2
    # The old leader comes back: it must rejoin as a follower and catch up.
    run.ev("restart", server=L)
    run.e.start(L)
    run.e.wait_serving(timeout=60)
    caught = run.wait_caught_up(timeout=30)
    run.srvr("after the old leader restarted")
    run.findings["old_leader_rejoined_as"] = run.e.srvr(L).get("mode")
    run.findings["old_leader_caught_up"] = bool(caught)
    txns = run.e.txns(NL)
    new_epoch = [t for t in txns if t["zxid"]["epoch"] == old_epoch + 1]
    run.findings["first_txn_of_new_epoch"] = new_epoch[0] if new_epoch else None
    run.findings["txns_of_old_epoch_after_kill_on_new_leader"] = [t for t in txns if t["zxid"]["epoch"] == old_epoch
                                                                  and t["zxid"]["counter"] > last_before]


def leader_killed_holding_lock(run):
    _leader_killed(run, on_leader=False)


def leader_killed_client_on_leader(run):
    _leader_killed(run, on_leader=True)


def _cut_off(run, cut_leader, session_timeout, write_during_cut=True):
    L = run.start()
    F = [i for i in run.e.ids if i != L]
    X = L if cut_leader else F[0]
    others = [i for i in run.e.ids if i != X]
    run.findings["leader_before"] = L
    run.findings["X"] = X
    c1 = run.make_client("C1", [X] + others, timeout=session_timeout)
    sid = c1.client_id[0]
    run.call("C1", "create", "/eph-c1", b"C1", ephemeral=True, include_data=True)
    lock = c1.Lock("/lock", "C1")
    lock.acquire(timeout=10)
    node = f"/lock/{lock.node}"
    run.ev("lock_acquire", client="C1", acquired=True, node=node)
    run.findings["lock_node"] = node
    # W watches the ephemeral from a server on the majority side.
    run.make_client("W", [others[0]])
    run.call("W", "exists", "/eph-c1", watch=lambda e: None)
    run.srvr("before the cut")
    run.cut(lambda tg: tg[0] in ("peer", "election") and X in tg[1:], "blackhole",
            f"server {X} from the other two (quorum and election links, silently)")
    cut_i, t_cut = run.events[-1]["i"], run.ms()
    # While X still believes it is in the ensemble: a read on X and a write through X.
    time.sleep(1.0)
    run.call("C1", "exists", "/eph-c1")
    w = {}

    def write():
        w["r"] = run.call("C1", "create", "/written-during-cut", b"", include_data=True, timeout=40)
    polls = []

    def poll_reads():
        # C1's session answers in order, so these reads are only done when no write is pending.
        while c1.state == KazooState.CONNECTED and run.where(c1) == f"s{X}" and len(polls) < 60:
            polls.append(run.call("C1", "exists", node, timeout=5))
            time.sleep(0.5)
    th = threading.Thread(target=write if write_during_cut else poll_reads, daemon=True)
    th.start()
    x_stopped = None
    new_leader = None
    deadline = time.monotonic() + 60
    last = None
    while time.monotonic() < deadline:
        s = run.e.srvr(X)
        state = (s.get("mode"), s.get("answer"))
        if state != last:
            run.ev("srvr_change", server=X, srvr=s)
            last = state
        if x_stopped is None and s.get("mode") is None:
            x_stopped = run.ms() - t_cut
        if new_leader is None:
            modes = {i: run.e.srvr(i).get("mode") for i in others}
            # The majority serves once one of the others leads and the other follows it (when X
            # was the leader, X itself may still say "leader" for a moment: it is not asked here).
            if "leader" in modes.values() and all(m in ("leader", "follower") for m in modes.values()):
                new_leader = [i for i, m in modes.items() if m == "leader"][0]
                run.ev("majority_serving", leader=new_leader, after_cut_ms=run.ms() - t_cut,
                       X_srvr=run.e.srvr(X))
                if cut_leader:
                    run.findings["majority_serving_after_cut_ms"] = run.ms() - t_cut
                else:
                    run.findings["majority_kept_its_leader"] = new_leader == L
        if x_stopped is not None and new_leader is not None and c1.state == KazooState.CONNECTED \
                and run.where(c1) != f"s{X}":
            break
        time.sleep(0.1)
    run.findings["X_not_serving_after_ms"] = x_stopped
    if cut_leader and x_stopped is not None and run.findings.get("majority_serving_after_cut_ms"):
        run.findings["old_leader_still_serving_after_new_leader_ms"] = x_stopped - run.findings["majority_serving_after_cut_ms"]
    run.findings["majority_leader"] = new_leader
    th.join(45)
    if write_during_cut:
        run.findings["write_sent_through_X_during_cut"] = w.get("r") and {k: w["r"].get(k) for k in ("ok", "err", "reply_zxid")}
    else:
        seen = [p for p in polls if p["ok"] and p["result"]["stat"]]
        run.findings["C1_reads_on_X_during_cut"] = {"count": len(polls), "saw_own_lock_node": len(seen),
                                                    "last_saw_it_at_ms": seen[-1]["sent_ms"] - t_cut if seen else None}
    note = next((e for e in run.events if e["kind"] == "notification" and e["client"] == "W" and e["i"] > cut_i), None)
    run.findings["W_notified_after_ms"] = note and note["t_ms"] - t_cut
    sus = first_state_after(run, "C1", "SUSPENDED", cut_i)
    con = first_state_after(run, "C1", "CONNECTED", cut_i)
    run.findings["C1_transitions_after_cut"] = [e["state"] for e in run.events if e["i"] > cut_i and
                                                e["kind"] == "client_state" and e["client"] == "C1"]
    run.findings["C1_suspended_after_ms"] = sus and sus["t_ms"] - t_cut
    run.findings["C1_reconnected_after_ms"] = con and con["t_ms"] - t_cut
    run.findings["C1_reconnected_to"] = con and con["server"]
    run.findings["C1_session_unchanged"] = c1.client_id[0] == sid
    run.findings["C1_session_expired"] = first_state_after(run, "C1", "LOST", cut_i) is not None
    run.srvr("majority serving, X cut off")
    v = run.view("/eph-c1", "C1's ephemeral on the majority side")
    run.findings["eph_owner_on_majority"] = {k: (a["stat"] or {}).get("ephemeralOwner", {}).get("hex") for k, a in v["answers"].items()}
    v = run.view(node, "C1's lock node on the majority side")
    run.findings["lock_owner_on_majority"] = {k: (a["stat"] or {}).get("ephemeralOwner", {}).get("hex") for k, a in v["answers"].items()}
    run.findings["W_notifications"] = [e["type"] for e in run.events if e["kind"] == "notification" and e["client"] == "W"]
    # A client that only knows X tries to connect while it is cut off.
    quiet = logging.getLogger("kz.lone")
    quiet.propagate = False
    lone = KazooClient(hosts=f"127.0.0.1:{CLIENT + X}", timeout=10, connection_retry=dict(max_tries=0), logger=quiet)
    try:
        lone.start(timeout=3)
        res = {"connected": True}
    except Exception as e:
        res = {"connected": False, "err": type(e).__name__}
    finally:
        lone.stop()
        lone.close()
    run.ev("connect_attempt_to_cut_server", server=X, **res)
    run.findings["new_client_on_X_during_cut"] = res
    z_before = run.e.srvr(X)
    run.cut(lambda tg: True, "open", f"server {X} rejoins")
    t_heal = run.ms()
    deadline = time.monotonic() + 60
    last = None
    rejoined = None
    while time.monotonic() < deadline:
        s = run.e.srvr(X)
        state = (s.get("mode"), s.get("answer"), (s.get("zxid") or {}).get("hex"))
        if state != last:
            run.ev("srvr_change", server=X, srvr=s)
            last = state
        if s.get("mode") in ("leader", "follower") and run.wait_caught_up(timeout=0.2):
            rejoined = run.ms() - t_heal
            break
        time.sleep(0.1)
    run.findings["X_rejoined_after_heal_ms"] = rejoined
    run.findings["X_srvr_before_heal"] = z_before
    run.srvr("after heal")
    run.findings["X_mode_after_heal"] = run.e.srvr(X).get("mode")
    syncs = run.e.log_lines(X, r"synchronization - (trunc|diff|snap)$")
    run.findings["X_last_sync_with_leader"] = syncs[-1] if syncs else None
    v = run.view("/eph-c1", "after heal, every server")
    run.findings["eph_owner_after_heal"] = {k: (a["stat"] or {}).get("ephemeralOwner", {}).get("hex") for k, a in v["answers"].items()}
    r = run.call("C1", "create", "/after-heal", b"", include_data=True)
    run.findings["first_write_after_heal_reply_zxid"] = r["reply_zxid"]
    if write_during_cut:
        v = run.view("/written-during-cut", "was the write that got no reply applied?")
        run.findings["write_during_cut_applied"] = {k: a["stat"] is not None for k, a in v["answers"].items()}
        run.findings["write_during_cut_in_final_txn_logs"] = {
            str(i): [t["zxid"]["hex"] for t in run.e.txns(i) if "/written-during-cut" in t["detail"]] for i in run.e.ids}


def client_server_cut_off(run):
    _cut_off(run, cut_leader=False, session_timeout=20.0)


def client_server_cut_off_short_session(run):
    _cut_off(run, cut_leader=False, session_timeout=4.0, write_during_cut=False)


def client_leader_cut_off(run):
    _cut_off(run, cut_leader=True, session_timeout=20.0)


def stale_read_follower(run):
    L = run.start()
    F = [i for i in run.e.ids if i != L][0]
    run.make_client("A", [L])
    run.make_client("B", [F])
    run.call("A", "create", "/s", b"0")
    run.wait_caught_up()
    run.call("B", "sync", "/s")
    # 1. Natural race: A writes on the leader, B reads on a follower right after A's reply.
    n, stale, examples = 300, 0, []
    a, b = run.clients["A"], run.clients["B"]
    for k in range(1, n + 1):
        st = a.set("/s", str(k).encode())
        data, bst = b.get("/s")
        if bst.mzxid != st.mzxid:
            stale += 1
            if len(examples) < 5:
                examples.append({"try": k, "written_mzxid": hex(st.mzxid), "read_mzxid": hex(bst.mzxid),
                                 "read_data": data.decode(), "written": str(k)})
    run.ev("stale_read_race", tries=n, stale=stale, examples=examples,
           method="A.set on the leader, then B.get on a follower as soon as A's reply arrived (same process)")
    run.findings["natural_race"] = {"tries": n, "stale": stale}
    run.wait_caught_up()
    # 2. Forced: B's server hears nothing from the leader for a while (its quorum link blackholed).
    before = run.call("B", "get", "/s")
    run.cut(lambda tg: tg == ("peer", F, L), "blackhole", f"follower {F}'s quorum link to leader {L} paused")
    w = run.call("A", "set", "/s", b"new")
    r1 = run.call("B", "get", "/s")
    run.findings["forced_write_reply_zxid"] = w["reply_zxid"]
    run.findings["forced_stale_read"] = {"data": r1["result"]["data"], "mzxid": r1["result"]["stat"]["mzxid"],
                                         "reply_zxid": r1["reply_zxid"]}
    run.srvr("link paused: leader and the other follower have the write, B's server not")
    # 2b. sync while the link is paused: it has to go to the leader, so it waits, and so does
    # B's next read (a session's requests are answered in order). The link resumes 1.5 s later.
    res = {}

    def bg(key, *a, **kw):
        th = threading.Thread(target=lambda: res.__setitem__(key, run.call("B", *a, **kw)), daemon=True)
        th.start()
        return th
    t1 = bg("sync", "sync", "/s", timeout=20)
    time.sleep(0.5)
    t2 = bg("read", "get", "/s", timeout=20)
    time.sleep(1.0)
    run.findings["sync_and_read_pending_while_link_paused"] = "sync" not in res and "read" not in res
    run.cut(lambda tg: True, "open", "link resumed")
    t1.join(25)
    t2.join(25)
    run.findings["sync_result"] = {k: res.get("sync", {}).get(k) for k in ("ok", "err", "reply_zxid")}
    rr = res.get("read", {})
    run.findings["read_queued_behind_sync"] = {"ok": rr.get("ok"), "err": rr.get("err"),
                                               "data": (rr.get("result") or {}).get("data"),
                                               "mzxid": ((rr.get("result") or {}).get("stat") or {}).get("mzxid")}
    run.wait_caught_up()
    # 2c. The same, but the link stays paused until B's client gives up: B's pings are answered
    # in order behind its pending sync, so kazoo sees no ping reply and drops the connection.
    w = run.call("A", "set", "/s", b"newer")
    run.cut(lambda tg: tg == ("peer", F, L), "blackhole", f"follower {F}'s quorum link to leader {L} paused again")
    t_cut, cut_i = run.ms(), run.events[-1]["i"]
    res.clear()
    t1 = bg("sync", "sync", "/s", timeout=20)
    run.wait_state("B", KazooState.SUSPENDED, timeout=9)
    run.cut(lambda tg: True, "open", "link resumed")
    t1.join(25)
    sus = first_state_after(run, "B", "SUSPENDED", cut_i)
    run.findings["long_sync_pending"] = {
        "sync": {k: res.get("sync", {}).get(k) for k in ("ok", "err")},
        "B_suspended_after_ms": sus and sus["t_ms"] - t_cut,
        "kazoo_reason": next((e["message"] for e in run.events if e["i"] > cut_i and e["kind"] == "kazoo_log"
                              and e["client"] == "B" and "dropped" in e["message"]), None),
        "B_negotiated_timeout_ms": run.clients["B"]._session_timeout}
    run.wait_state("B", KazooState.CONNECTED, timeout=20)
    r3 = run.call("B", "get", "/s")
    run.findings["read_after_reconnect"] = {"data": r3["result"]["data"], "mzxid": r3["result"]["stat"]["mzxid"]}
    # 3. Read-your-writes on a follower.
    w = run.call("B", "set", "/s", b"mine")
    r = run.call("B", "get", "/s")
    run.findings["read_your_write_on_follower"] = r["result"]["data"] == "mine" and \
        r["result"]["stat"]["mzxid"] == w["result"]["stat"]["mzxid"]


def reconnect_refused_by_lagging_server(run):
    L = run.start()
    F1, F2 = [i for i in run.e.ids if i != L]
    c1 = run.make_client("C1", [("proxy", L), F1])
    sid = c1.client_id[0]
    run.call("C1", "create", "/r", b"0")
    run.wait_caught_up()
    run.cut(lambda tg: tg == ("peer", F1, L), "blackhole", f"follower {F1}'s quorum link to the leader paused")
    for k in range(3):
        run.call("C1", "set", "/r", str(k + 1).encode())
    seen = c1.last_zxid
    run.findings["C1_last_zxid"] = zxid_fields(seen)
    run.srvr(f"server {F1} lags")
    run.findings["F1"] = F1
    run.findings["F1_zxid_while_lagging"] = run.e.srvr(F1).get("zxid")
    cut_i = len(run.events)
    run.cut(lambda tg: tg == ("client", "C1", L), "reset", "C1's connection to the leader (reset, and refused)")
    t_cut = run.ms()
    time.sleep(3.0)
    run.findings["C1_state_while_only_lagging_server_reachable"] = str(run.clients["C1"].state)
    run.findings["refusals_in_F1_log"] = run.e.log_lines(F1, "Refusing session")
    run.findings["C1_connect_attempts_to_F1"] = sum(1 for e in run.events if e["i"] > cut_i and e["kind"] == "kazoo_log"
                                                    and e["client"] == "C1" and f":{CLIENT + F1}" in e["message"]
                                                    and e["message"].startswith("Connecting"))
    run.cut(lambda tg: tg == ("peer", F1, L), "open", f"follower {F1}'s quorum link resumed")
    run.wait_state("C1", KazooState.CONNECTED, timeout=30)
    con = first_state_after(run, "C1", "CONNECTED", cut_i)
    run.findings["C1_reconnected_to"] = con and con["server"]
    run.findings["C1_reconnected_after_ms"] = con and con["t_ms"] - t_cut
    run.findings["C1_session_unchanged"] = c1.client_id[0] == sid
    r = run.call("C1", "get", "/r")
    run.findings["read_after_reconnect"] = {"data": r["result"]["data"], "reply_zxid": r["reply_zxid"]}
    run.srvr("after")


def session_expiry_in_ensemble(run):
    L = run.start()
    F1, F2 = [i for i in run.e.ids if i != L]
    tmo = 2 * TICK / 1000  # the smallest session timeout the servers allow
    c1 = run.make_client("C1", [("proxy", F1)], timeout=tmo)
    sid = c1.client_id[0]
    run.findings["C1_session"] = session_fields(sid)
    run.findings["C1_negotiated_timeout_ms"] = c1._session_timeout
    run.call("C1", "create", "/locks", b"")
    run.call("C1", "create", "/locks/e-", b"", ephemeral=True, sequence=True)
    eph = run.events[-1]["result"]["path"]
    run.findings["ephemeral"] = eph
    run.make_client("W", [F2])
    run.call("W", "exists", eph, watch=lambda e: None)
    run.call("W", "get_children", "/locks", watch=lambda e: None)
    run.view("/locks", "parent before")
    run.srvr("before")
    run.cut(lambda tg: tg == ("client", "C1", F1), "blackhole", "C1's only connection (its pings stop reaching the server)")
    t_cut, cut_i = run.ms(), run.events[-1]["i"]
    deadline = time.monotonic() + 60
    gone = None
    while time.monotonic() < deadline:
        ans = {}
        for i in run.serving():
            try:
                ans[i] = run.probes[i].exists(eph) is not None
            except Exception as e:
                ans[i] = type(e).__name__
        if all(v is False for v in ans.values()):
            gone = run.ms() - t_cut
            break
        time.sleep(0.05)
    run.findings["ephemeral_gone_everywhere_after_ms"] = gone
    run.findings["expiry_ms_over_timeout"] = gone and round(gone / c1._session_timeout, 2)
    run.srvr("ephemeral gone")
    v = run.view("/locks", "parent after the expiry, on every server")
    run.findings["parent_pzxid_per_server"] = {k: a["stat"]["pzxid"]["hex"] for k, a in v["answers"].items()}
    run.findings["parent_cversion_per_server"] = {k: a["stat"]["cversion"] for k, a in v["answers"].items()}
    close = [t for t in run.e.txns(L) if t["type"] == "closeSession" and int(t["session"], 16) == sid]
    run.findings["closeSession_txn"] = close[0] if close else None
    run.findings["expiry_log_on_leader"] = run.e.log_lines(L, "Expiring session")
    run.findings["expiry_log_on_followers"] = {str(i): run.e.log_lines(i, "Expiring session") for i in (F1, F2)}
    run.findings["C1_state_before_heal"] = str(c1.state)
    run.findings["W_notifications"] = [{"type": e["type"], "path": e["path"]} for e in run.events
                                       if e["kind"] == "notification" and e["client"] == "W"]
    run.cut(lambda tg: True, "open", "C1's connection works again")
    t_heal = run.ms()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and first_state_after(run, "C1", "LOST", cut_i) is None:
        time.sleep(0.05)
    run.wait_state("C1", KazooState.CONNECTED, timeout=20)
    run.findings["C1_transitions_after_cut"] = [e["state"] for e in run.events if e["i"] > cut_i and
                                                e["kind"] == "client_state" and e["client"] == "C1"]
    sus = first_state_after(run, "C1", "SUSPENDED", cut_i)
    run.findings["C1_suspended_after_ms"] = sus and sus["t_ms"] - t_cut
    lost = first_state_after(run, "C1", "LOST", cut_i)
    run.findings["C1_lost_after_heal_ms"] = lost and lost["t_ms"] - t_heal
    run.findings["C1_new_session_after_lost"] = session_fields(c1.client_id[0]) if c1.client_id else None


SCENARIOS = {f.__name__: f for f in (write_via_follower, leader_killed_holding_lock, leader_killed_client_on_leader,
                                     client_server_cut_off, client_server_cut_off_short_session,
                                     client_leader_cut_off, stale_read_follower,
                                     reconnect_refused_by_lagging_server, session_expiry_in_ensemble)}
DESCRIPTIONS = {
    "write_via_follower": "A client connected only to a follower creates and sets a node; every server's view, "
                          "the session ids' creator byte, and the transaction log.",
    "leader_killed_holding_lock": "C1 on a follower holds a kazoo Lock; the leader is killed (SIGKILL). Election, "
                                  "C1's states, the new epoch, the lock node on every remaining server, C2 waits.",
    "leader_killed_client_on_leader": "Same, but C1 is connected to the leader itself when it is killed.",
    "client_server_cut_off": "C1 (session 20 s) on follower X holds an ephemeral and a lock; X's links to the other "
                             "two servers are silently blackholed; then healed.",
    "client_server_cut_off_short_session": "Same with a 4 s session (shorter than syncLimit x tickTime).",
    "client_leader_cut_off": "Same as client_server_cut_off, but X is the leader.",
    "stale_read_follower": "A writes on the leader, B reads on a follower: a natural race, then a forced one "
                           "(B's server's quorum link paused), then sync.",
    "reconnect_refused_by_lagging_server": "C1 saw zxid Z on the leader; its leader connection is cut and the only "
                                           "other server it knows is behind Z.",
    "session_expiry_in_ensemble": "C1's only connection is silently blackholed; the leader expires its session.",
}


def main(argv):
    global RUN
    if argv == ["--list"]:
        print("\n".join(SCENARIOS))
        return 0
    names = argv or list(SCENARIOS)
    failed = 0
    for name in names:
        run = RUN = Run(name, DESCRIPTIONS[name])
        error = None
        t = time.monotonic()
        try:
            SCENARIOS[name](run)
        except Exception:
            error = traceback.format_exc()
            failed += 1
        finally:
            run.finish(error)
            RUN = None
        print(f"  {name}: {time.monotonic() - t:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    sys.exit(main(sys.argv[1:]))
