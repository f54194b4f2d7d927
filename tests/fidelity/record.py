#!/usr/bin/env python3
"""Records replay scripts against a real ZooKeeper 3.8 server, in Lockstep's replay format.

Usage: tests/fidelity/record.py [SCRIPT.json ...]   (default: every tests/fidelity/scripts/*.json)

For each script a fresh standalone server (Debian's `zookeeper` package, started by
zk-server.sh on 127.0.0.1) is started, so zxid 1 is the script's first transaction. Sessions
are kazoo 2.11 clients, but requests are sent as raw protocol records (`client._call`) so paths
reach the server verbatim. Watch notifications are captured where kazoo reads them off the
socket, one entry per server notification, before kazoo fans them out to watcher functions.
After every op each live session does a `sync` round trip, so every notification the op caused
has arrived before the next op starts. `expire` hijacks the session from a second connection
(which makes the server drop the victim's connection and its watches) and closes it there: the
server runs the same closeSession transaction as on a timeout, and the victim hears nothing.
`check_watches` / `remove_watches` are sent as raw checkWatches (17) / removeWatches (18) records
(kazoo 2.11 has no API for them); their `zxid` is the reply header's own zxid, captured off the
socket (kazoo's `last_zxid` ignores a header zxid <= 0).
"""
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from kazoo.client import KazooClient
from kazoo.exceptions import ZookeeperError
from kazoo.protocol import connection as kconn
from kazoo.protocol.serialization import (CheckVersion, Create, Create2, Delete, Exists,
                                          GetChildren2, GetData, SetData, Sync, Transaction, Watch,
                                          int_struct, write_string)
from kazoo.security import OPEN_ACL_UNSAFE

HERE = Path(__file__).resolve().parent
PORT = int(os.environ.get("ZK_PORT", "21810"))
HOSTS = f"127.0.0.1:{PORT}"
EVENT_NAMES = {1: "NODE_CREATED", 2: "NODE_DELETED", 3: "NODE_DATA_CHANGED", 4: "NODE_CHILDREN_CHANGED"}
MODES = {"persistent": 0, "ephemeral": 1, "persistent_sequential": 2, "ephemeral_sequential": 3, "container": 4}
SYSTEM = {"/", "/zookeeper", "/zookeeper/config", "/zookeeper/quota"}


class CreateContainer(Create2):
    """createContainer (opcode 19): same body as create2, reply is path + Stat."""
    type = 19


WATCHER_TYPES = {"children": 1, "data": 2, "any": 3}


class CheckWatches:
    """checkWatches (opcode 17): body = path + watcher type (int); empty reply body."""
    type = 17

    def __init__(self, path, wtype):
        self.path, self.wtype = path, wtype

    def serialize(self):
        return write_string(self.path) + int_struct.pack(self.wtype)

    @classmethod
    def deserialize(cls, buffer, offset):
        return None


class RemoveWatches(CheckWatches):
    """removeWatches (opcode 18): same body as checkWatches; empty reply body."""
    type = 18


HEADER_ZXID = {}  # id(kazoo client) -> zxid of the last reply header read off its socket
_orig_read_response = kconn.ConnectionHandler._read_response


def _recording_read_response(self, header, buffer, offset):
    HEADER_ZXID[id(self.client)] = header.zxid
    return _orig_read_response(self, header, buffer, offset)


kconn.ConnectionHandler._read_response = _recording_read_response

RECEIVED = {}  # id(kazoo client) -> notifications read off its socket, in order
_orig_read_watch_event = kconn.ConnectionHandler._read_watch_event


def _recording_read_watch_event(self, buffer, offset):
    watch, _ = Watch.deserialize(buffer, offset)
    RECEIVED.setdefault(id(self.client), []).append({"type": EVENT_NAMES.get(watch.type, str(watch.type)), "path": watch.path})
    return _orig_read_watch_event(self, buffer, offset)


kconn.ConnectionHandler._read_watch_event = _recording_read_watch_event


def srvr_zxid():
    """The server's last processed zxid, from the `srvr` four-letter word."""
    with socket.create_connection(("127.0.0.1", PORT), timeout=5) as s:
        s.sendall(b"srvr")
        text = b""
        while chunk := s.recv(4096):
            text += chunk
    for line in text.decode().splitlines():
        if line.startswith("Zxid:"):
            return int(line.split(":")[1].strip(), 16)
    raise RuntimeError("no Zxid in srvr output")


def ignore(*_):
    """A watcher function: kazoo sets a watch only when one is given."""


class Recorder:
    def __init__(self):
        self.clients = {}   # session index -> KazooClient
        self.index_of = {}  # session id -> session index

    def zxid(self, z):
        return "pre" if z <= 0 else z

    def stat(self, st):
        owner = self.index_of.get(st.ephemeralOwner) if st.ephemeralOwner else None
        return {"czxid": self.zxid(st.czxid), "mzxid": self.zxid(st.mzxid), "pzxid": self.zxid(st.pzxid),
                "version": st.version, "cversion": st.cversion, "aversion": st.aversion,
                "dataLength": st.dataLength, "numChildren": st.numChildren,
                "ephemeral": st.ephemeralOwner != 0, "owner": owner}

    def call(self, client, request):
        result = client.handler.async_result()
        client._call(request, result)
        value = result.get(timeout=10)
        return value, client.last_zxid

    def error(self, exc, zxid):
        return {"ok": False, "err": type(exc).__name__, "code": exc.code, "zxid": zxid}

    def connect(self, op):
        c = KazooClient(hosts=HOSTS, timeout=op.get("timeout_ms", 4000) / 1000.0)
        c.start(timeout=15)
        self.clients[op["s"]] = c
        self.index_of[c.client_id[0]] = op["s"]
        return {"ok": True, "zxid": srvr_zxid()}

    def close(self, op):
        c = self.clients.pop(op["s"])
        c.stop()
        c.close()
        return {"ok": True, "zxid": srvr_zxid()}

    def expire(self, op):
        victim = self.clients.pop(op["s"])
        session_id, password = victim.client_id
        victim._stopped.set()  # never reconnect (kazoo would open a new session after LOST)
        hijacker = KazooClient(hosts=HOSTS, client_id=(session_id, password), timeout=10)
        hijacker.start(timeout=15)
        hijacker.stop()
        hijacker.close()
        return {"ok": True, "zxid": srvr_zxid()}

    def data(self, op):
        d = op.get("data", "")
        return None if d is None else d.encode()

    def request(self, op):
        kind, path = op["op"], op.get("path", "/")
        watcher = ignore if op.get("watch") else None
        if kind == "create":
            flags = MODES[op.get("mode", "persistent")]
            cls = CreateContainer if flags == 4 else Create2
            return cls(path, self.data(op), OPEN_ACL_UNSAFE, flags)
        if kind == "delete":
            return Delete(path, op.get("version", -1))
        if kind == "exists":
            return Exists(path, watcher)
        if kind == "get_data":
            return GetData(path, watcher)
        if kind == "set_data":
            return SetData(path, self.data(op), op.get("version", -1))
        if kind == "get_children":
            return GetChildren2(path, watcher)
        if kind == "sync":
            return Sync(path)
        if kind == "multi":
            return Transaction([self.sub_request(sub) for sub in op["ops"]])
        if kind == "check_watches":
            return CheckWatches(path, WATCHER_TYPES[op.get("type", "any")])
        if kind == "remove_watches":
            return RemoveWatches(path, WATCHER_TYPES[op.get("type", "any")])
        raise ValueError(f"unknown op {kind}")

    def sub_request(self, sub):
        path = sub["path"]
        if sub["op"] == "create":
            return Create(path, self.data(sub), OPEN_ACL_UNSAFE, MODES[sub.get("mode", "persistent")])
        if sub["op"] == "delete":
            return Delete(path, sub.get("version", -1))
        if sub["op"] == "set_data":
            return SetData(path, self.data(sub), sub.get("version", -1))
        if sub["op"] == "check":
            return CheckVersion(path, sub.get("version", -1))
        raise ValueError(f"unknown sub-op {sub['op']}")

    def run_request(self, op):
        c = self.clients.get(op["s"])
        if c is None:
            return {"ok": False, "err": "SessionExpiredError", "code": -112, "zxid": srvr_zxid()}
        raw = op["op"] in ("check_watches", "remove_watches")
        try:
            value, zxid = self.call(c, self.request(op))
        except ZookeeperError as e:
            return self.error(e, HEADER_ZXID[id(c)] if raw else c.last_zxid)
        return self.render(op, value, HEADER_ZXID[id(c)] if raw else zxid)

    def render(self, op, value, zxid):
        kind = op["op"]
        out = {"ok": True, "zxid": zxid}
        if kind == "create":
            out["path"], out["stat"] = value[0], self.stat(value[1])
        elif kind == "exists":
            out["stat"] = None if value is None else self.stat(value)
        elif kind == "get_data":
            out["data"] = None if value[0] is None else value[0].decode()
            out["stat"] = self.stat(value[1])
        elif kind == "set_data":
            out["stat"] = self.stat(value)
        elif kind == "get_children":
            out["children"], out["stat"] = sorted(value[0]), self.stat(value[1])
        elif kind == "sync":
            out["path"] = value
        elif kind == "multi":
            return self.render_multi(op, value, zxid)
        return out

    def render_multi(self, op, results, zxid):
        rendered, first = [], None
        for sub, r in zip(op["ops"], results):
            if isinstance(r, Exception):
                rendered.append({"ok": False, "err": type(r).__name__, "code": r.code})
                if first is None and r.code != 0:
                    first = r
            elif sub["op"] == "create":
                rendered.append({"ok": True, "path": r})
            elif sub["op"] == "set_data":
                rendered.append({"ok": True, "stat": self.stat(r)})
            else:
                rendered.append({"ok": True})
        if first is None:
            return {"ok": True, "results": rendered, "zxid": zxid}
        return {"ok": False, "err": type(first).__name__, "code": first.code, "results": rendered, "zxid": zxid}

    def flush(self):
        """A sync round trip per live session: every notification queued before it has arrived."""
        for c in self.clients.values():
            self.call(c, Sync("/"))
        time.sleep(0.02)

    def step(self, i, op):
        RECEIVED.clear()
        handlers = {"connect": self.connect, "close": self.close, "expire": self.expire}
        clients_before = dict(self.clients)
        result = handlers.get(op["op"], self.run_request)(op)
        self.flush()
        events = {}
        for s, c in {**clients_before, **self.clients}.items():
            if RECEIVED.get(id(c)):
                events[str(s)] = RECEIVED[id(c)]
        return {"i": i, "op": op, "result": result, "events": events}

    def final_tree(self):
        c = KazooClient(hosts=HOSTS, timeout=10)
        c.start(timeout=15)
        tree, todo = {}, ["/"]
        while todo:
            path = todo.pop()
            data, st = c.get(path)
            if path not in SYSTEM:
                tree[path] = {"data": None if data is None else data.decode(), "stat": self.stat(st)}
            todo.extend((path.rstrip("/") + "/" + k) for k in c.get_children(path))
        c.stop()
        c.close()
        return tree

    def shutdown(self):
        for c in self.clients.values():
            c._stopped.set()
            try:
                c.close()
            except Exception:
                pass


def wait_for_server(proc):
    for _ in range(200):
        if proc.poll() is not None:
            raise RuntimeError("ZooKeeper exited; is Debian's `zookeeper` package installed?")
        try:
            srvr_zxid()
            return
        except (OSError, RuntimeError):
            time.sleep(0.1)
    raise RuntimeError("ZooKeeper did not start")


def record(script_path):
    script = json.loads(Path(script_path).read_text())
    data_dir = f"/tmp/lockstep-zk-{PORT}"
    proc = subprocess.Popen([str(HERE / "zk-server.sh"), str(PORT), data_dir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rec = Recorder()
    try:
        wait_for_server(proc)
        ops = [rec.step(i, op) for i, op in enumerate(script["ops"])]
        out = {"name": script["name"], "ops": ops, "final_tree": rec.final_tree()}
    finally:
        rec.shutdown()
        proc.terminate()
        proc.wait()
    target = HERE / "expected" / (Path(script_path).name.replace(".script.json", "") + ".expected.json")
    target.write_text(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"recorded {target.relative_to(HERE.parent.parent)}")


def main(argv):
    scripts = argv or sorted(str(p) for p in (HERE / "scripts").glob("*.script.json"))
    for s in scripts:
        record(s)


if __name__ == "__main__":
    main(sys.argv[1:])
