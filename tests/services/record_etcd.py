#!/usr/bin/env python3
"""Records etcd scripts against a real etcd 3.4 (Debian's etcd-server), for Lockstep.

Usage: tests/services/record_etcd.py [tests/services/etcd/NAME.etcd ...]  (default: all)

Each script gets a fresh single-member etcd on 127.0.0.1:23791 (private data dir), driven
through its v3 JSON gateway. Script lines (connection letter first; values have no spaces,
"" is the empty value):
    A grant L1 10                      LeaseGrant, the ID is named L1 ($L1 = its hex form)
    A put k v [lease=L1]               Put
    A get k [prefix] [sort=create|mod|version|key|value] [asc|desc] [limit=N] [maxcreate=N] [count]
    A del k [prefix]                   DeleteRange
    A txn create(k)=0 ... then <op> [; <op>] [else <op> [; <op>]]
    A keepalive L1 / A ttl L1 / A revoke L1
    A watch W1 k [prefix] [from=N]     open a watch stream; `A events W1` prints what arrived
    sleep 800                          wait (the model advances its clock by as much)
Answers are rendered in one line (`rev=3 count=1 kvs=[k=v c=2 m=3 v=2 lease=L1]`) and written
beside the command in NAME.expected.
"""
import base64
import http.client
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PORT, PEER = 23791, 23801


def b64(s):
    return base64.b64encode(s.encode()).decode()


def unb64(s):
    return base64.b64decode(s or "").decode()


def prefix_end(key):
    b = bytearray(key.encode())
    b[-1] += 1
    return b.decode()


def post(path, body):
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    c.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    data = json.loads(c.getresponse().read() or b"{}")
    c.close()
    return data.get("result", data)


class Recorder:
    def __init__(self):
        self.leases = []  # (name, id)
        self.inbox = {}
        self.threads = []

    def lease(self, name):
        return next(i for n, i in self.leases if n == name)

    def subst(self, w):
        if w == '""':
            return ""
        for n, i in self.leases:
            w = w.replace(f"${n}", format(i, "x"))
        return w

    def names(self, s):
        for n, i in self.leases:
            s = s.replace(str(i), n).replace(format(i, "x"), f"${n}")
        return s

    def kv(self, k):
        lease = f" lease={k['lease']}" if int(k.get("lease", 0)) else ""
        return (f"{unb64(k['key'])}={unb64(k.get('value'))} c={k.get('create_revision', 0)} "
                f"m={k.get('mod_revision', 0)} v={k.get('version', 0)}{lease}")

    def op_resp(self, kind, r):
        if kind == "put":
            return "put"
        if kind == "del":
            return f"deleted={r.get('deleted', 0)}"
        if kind == "txn":
            parts = []
            for x in r.get("responses", []):
                (name, body), = x.items()
                parts.append(self.op_resp({"response_put": "put", "response_range": "get",
                                           "response_delete_range": "del"}[name], body))
            return f"{'succeeded' if r.get('succeeded') else 'failed'} [{'; '.join(parts)}]"
        kvs = ", ".join(self.kv(k) for k in r.get("kvs", []))
        return f"count={r.get('count', 0)} kvs=[{kvs}]" + (" more" if r.get("more") else "")

    def op_req(self, w):
        key = w[1]
        opt = lambda f: next((x[len(f):] for x in w[2:] if x.startswith(f)), None)
        if w[0] == "put":
            body = {"key": b64(key), "value": b64(w[2])}
            if opt("lease="):
                body["lease"] = str(self.lease(opt("lease=")))
            return "put", "/v3/kv/put", body
        if w[0] == "del":
            body = {"key": b64(key)}
            if "prefix" in w[2:]:
                body["range_end"] = b64(prefix_end(key))
            return "del", "/v3/kv/deleterange", body
        if w[0] == "txn":
            return "txn", "/v3/kv/txn", self.txn(w[1:])
        body = {"key": b64(key)}
        if "prefix" in w[2:]:
            body["range_end"] = b64(prefix_end(key))
        if opt("sort="):
            body["sort_target"] = opt("sort=").upper()
            if "desc" in w[2:]:
                body["sort_order"] = "DESCEND"
            if "asc" in w[2:]:
                body["sort_order"] = "ASCEND"
        for f, field in (("limit=", "limit"), ("maxcreate=", "max_create_revision")):
            if opt(f):
                body[field] = opt(f)
        if "count" in w[2:]:
            body["count_only"] = True
        return "get", "/v3/kv/range", body

    def txn(self, w):
        then = w.index("then") if "then" in w else len(w)
        els = w.index("else") if "else" in w else len(w)
        names = {"put": "request_put", "del": "request_delete_range", "get": "request_range"}

        def ops(seq):
            out, cur = [], []
            for x in seq + [";"]:
                if x == ";":
                    if cur:
                        kind, _, body = self.op_req(cur)
                        out.append({names[kind]: body})
                    cur = []
                else:
                    cur.append(x)
            return out

        compares = []
        for c in w[:then]:
            target, rest = c.split("(", 1)
            key, rest = rest.split(")", 1)
            op, val = ("NOT_EQUAL", rest[2:]) if rest.startswith("!=") else ({"=": "EQUAL", ">": "GREATER", "<": "LESS"}[rest[0]], rest[1:])
            field = {"create": "create_revision", "mod": "mod_revision", "version": "version", "value": "value"}[target]
            compares.append({"key": b64(key), "target": target.upper() if target != "create" else "CREATE",
                             "result": op, field: b64(val) if target == "value" else val})
        return {"compare": compares, "success": ops(w[then + 1:els]), "failure": ops(w[els + 1:])}

    def exec(self, w):
        if w[0] == "grant":
            r = post("/v3/lease/grant", {"TTL": w[2]})
            if "ID" in r:
                self.leases.append((w[1], int(r["ID"])))
                return f"{r['ID']} ttl={r['TTL']}"
            return self.error(r)
        if w[0] == "keepalive":
            r = post("/v3/lease/keepalive", {"ID": str(self.lease(w[1]))})
            return f"ttl={r.get('TTL', 0)}"
        if w[0] == "ttl":
            r = post("/v3/lease/timetolive", {"ID": str(self.lease(w[1]))})
            return "ttl=-1" if int(r.get("TTL", -1)) == -1 else f"ttl={r['TTL']} granted={r['grantedTTL']}"
        if w[0] == "revoke":
            r = post("/v3/lease/revoke", {"ID": str(self.lease(w[1]))})
            return self.error(r) if "error" in r or "code" in r else f"rev={r['header']['revision']}"
        if w[0] == "watch":
            return self.watch(w)
        if w[0] == "events":
            time.sleep(0.3)
            return " ".join(self.inbox.pop(w[1], []))
        kind, path, body = self.op_req(w)
        r = post(path, body)
        if "code" in r and "header" not in r:
            return self.error(r)
        return f"rev={r['header']['revision']} {self.op_resp(kind, r)}"

    def error(self, r):
        return f"error code={r.get('code')} {r.get('message', r.get('error'))}"

    def watch(self, w):
        name, key = w[1], w[2]
        req = {"key": b64(key)}
        if "prefix" in w[3:]:
            req["range_end"] = b64(prefix_end(key))
        start = next((x[5:] for x in w[3:] if x.startswith("from=")), None)
        if start:
            req["start_revision"] = start
        c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        c.request("POST", "/v3/watch", json.dumps({"create_request": req}), {"Content-Type": "application/json"})
        resp = c.getresponse()
        first = json.loads(resp.readline())["result"]

        def pump():
            try:
                while True:
                    line = resp.readline()
                    if not line:
                        return
                    r = json.loads(line)["result"]
                    evs = []
                    for e in r.get("events", []):
                        k = e["kv"]
                        if e.get("type") == "DELETE":
                            evs.append(f"DELETE {unb64(k['key'])} m={k.get('mod_revision')}")
                        else:
                            evs.append(f"PUT {self.kv(k)}")
                    if evs:
                        self.inbox.setdefault(name, []).append("[" + "; ".join(evs) + "]")
            except Exception:
                return

        t = threading.Thread(target=pump, daemon=True)
        t.start()
        self.threads.append((c, t))
        return "created" if first.get("created") else json.dumps(first)


def record(script):
    data = tempfile.mkdtemp(prefix="lockstep-etcd-")
    p = subprocess.Popen(["etcd", "--data-dir", data, "--listen-client-urls", f"http://127.0.0.1:{PORT}",
                          "--advertise-client-urls", f"http://127.0.0.1:{PORT}",
                          "--listen-peer-urls", f"http://127.0.0.1:{PEER}",
                          "--initial-advertise-peer-urls", f"http://127.0.0.1:{PEER}",
                          "--initial-cluster", f"default=http://127.0.0.1:{PEER}"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rec, out = Recorder(), []
    try:
        for _ in range(100):
            try:
                post("/v3/kv/range", {"key": b64("x")})
                break
            except OSError:
                time.sleep(0.1)
        for raw in script.read_text().splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                out.append(raw)
            elif line.startswith("sleep "):
                time.sleep(int(line.split()[1]) / 1000)
                out.append(line)
            else:
                words = [rec.subst(x) for x in line.split()[1:]]
                out.append(f"{line} -> {rec.names(rec.exec(words))}")
    finally:
        p.kill()
        p.wait()
        shutil.rmtree(data, ignore_errors=True)
    script.with_suffix(".expected").write_text("\n".join(out) + "\n")
    print(f"recorded {script.name}")


if __name__ == "__main__":
    for s in [Path(a) for a in sys.argv[1:]] or sorted((HERE / "etcd").glob("*.etcd")):
        record(s)
