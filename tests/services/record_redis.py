#!/usr/bin/env python3
"""Records Redis command scripts against a real Redis 7 (Debian's redis-server), for Lockstep.

Usage: tests/services/record_redis.py [tests/services/redis/NAME.redis ...]  (default: all)

Each script gets a fresh private primary on 127.0.0.1:21811 and a replica on 21812 (no
persistence, no config file). Script lines:
    A SET lock tokA NX PX 30000   command on connection A (any capital letter but R)
    R GET lock                    command on the replica
    sleep 800                     wait 800 ms (the engine advances its clock by as much)
    !freeze-replica / !resume-replica / !kill-primary   SIGSTOP, SIGCONT, SIGKILL
$CAD and $EXTEND stand for the compare-and-delete and compare-and-extend scripts, $RL_LOCK,
$RL_UNLOCK and $RL_EXTEND for node-redlock 4.2.0's scripts (byte for byte: their SHA1s are what
its EVALSHA sends). Replies are read as raw RESP2 and written beside the command in NAME.expected:
`A SET … -> +OK`. KEYS and SCAN answer in hash-table order, which a random seed per process
decides, so their keys are sorted before they are written. DEBUG is enabled for local clients
(`DEBUG SET-ACTIVE-EXPIRE`).
"""
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PRIMARY, REPLICA = 21811, 21812
CAD = 'if redis.call("get",KEYS[1]) == ARGV[1] then\n    return redis.call("del",KEYS[1])\nelse\n    return 0\nend'
EXTEND = 'if redis.call("get",KEYS[1]) == ARGV[1] then\n    return redis.call("pexpire",KEYS[1],ARGV[2])\nelse\n    return 0\nend'
# node-redlock 4.2.0 (redlock.js): lockScript, unlockScript, extendScript.
RL_LOCK = ('\n\t-- Return 0 if an entry already exists.\n\tfor i, key in ipairs(KEYS) do\n\t\tif redis.call("exists", key) == 1 then\n'
           '\t\t\treturn 0\n\t\tend\n\tend\n\n\t-- Create an entry for each provided key.\n\tfor i, key in ipairs(KEYS) do\n'
           '\t\tredis.call("set", key, ARGV[1], "PX", ARGV[2])\n\tend\n\n\t-- Return the number of entries added.\n\treturn #KEYS\n')
RL_UNLOCK = ('\n\tlocal count = 0\n\tfor i, key in ipairs(KEYS) do\n\t\t-- Only remove entries for *this* lock value.\n'
             '\t\tif redis.call("get", key) == ARGV[1] then\n\t\t\tredis.pcall("del", key)\n\t\t\tcount = count + 1\n\t\tend\n'
             '\tend\n\n\t-- Return the number of entries removed.\n\treturn count\n')
RL_EXTEND = ('\n\t-- Return 0 if an entry exists with a *different* lock value.\n\tfor i, key in ipairs(KEYS) do\n'
             '\t\tif redis.call("get", key) ~= ARGV[1] then\n\t\t\treturn 0\n\t\tend\n\tend\n\n'
             '\t-- Update the entry for each provided key.\n\tfor i, key in ipairs(KEYS) do\n'
             '\t\tredis.call("set", key, ARGV[1], "PX", ARGV[2])\n\tend\n\n\t-- Return the number of entries updated.\n\treturn #KEYS\n')
SCRIPTS = {"$CAD": CAD, "$EXTEND": EXTEND, "$RL_LOCK": RL_LOCK, "$RL_UNLOCK": RL_UNLOCK, "$RL_EXTEND": RL_EXTEND}


def start(port, *extra):
    args = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", "/tmp", "--dbfilename", f"lockstep-{port}.rdb", "--enable-debug-command", "local", *extra]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return p
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server on {port} did not start")


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.f = self.s.makefile("rb")

    def call(self, args):
        out = f"*{len(args)}\r\n".encode()
        for a in args:
            b = a.encode()
            out += f"${len(b)}\r\n".encode() + b + b"\r\n"
        self.s.sendall(out)
        # KEYS: sort the reply; SCAN: sort the keys in [cursor, [keys]].
        return self.read({"KEYS": 0, "SCAN": 1}.get(args[0].upper() if args else "", -1))

    def read(self, sort_depth=-1):
        line = self.f.readline().decode().rstrip("\r\n")
        kind, rest = line[0], line[1:]
        if kind in "+-":
            return line
        if kind == ":":
            return line
        if kind == "$":
            n = int(rest)
            if n < 0:
                return "$-1"
            data = self.f.read(n + 2)[:-2].decode()
            return f'"{data}"'
        if kind == "*":
            n = int(rest)
            if n < 0:
                return "*-1"
            items = [self.read(sort_depth - 1) for _ in range(n)]
            if sort_depth == 0:
                items.sort(key=lambda s: s[1:-1] if s.startswith('"') else s)
            return "[" + ", ".join(items) + "]"
        raise RuntimeError(f"bad reply {line!r}")


def wait_synced(replica):
    for _ in range(100):
        if "master_link_status:up" in replica.call(["INFO", "replication"]):
            return
        time.sleep(0.1)
    raise RuntimeError("replica did not sync")


def record(script):
    primary = start(PRIMARY)
    replica = start(REPLICA, "--replicaof", "127.0.0.1", str(PRIMARY))
    conns, out = {}, []
    try:
        wait_synced(Conn(REPLICA))
        for raw in script.read_text().splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                out.append(raw)
                continue
            if line.startswith("sleep "):
                time.sleep(int(line.split()[1]) / 1000)
            elif line.startswith("!"):
                proc = replica if "replica" in line else primary
                sig = {"!freeze-replica": "-STOP", "!resume-replica": "-CONT", "!kill-primary": "-KILL"}[line]
                subprocess.run(["kill", sig, str(proc.pid)], check=True)
                time.sleep(0.1)
            else:
                who, *args = shlex.split(line)
                args = [SCRIPTS.get(a, a) for a in args]
                port = REPLICA if who == "R" else PRIMARY
                if who not in conns:
                    conns[who] = Conn(port)
                line = f"{line} -> {conns[who].call(args)}"
            out.append(line)
    finally:
        for p in (primary, replica):
            subprocess.run(["kill", "-CONT", str(p.pid)])
            p.kill()
            p.wait()
    script.with_suffix(".expected").write_text("\n".join(out) + "\n")
    print(f"recorded {script.name}")


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or sorted((HERE / "redis").glob("*.redis"))
    for p in paths:
        record(p)
