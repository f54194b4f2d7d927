"""A throwaway 3-server ZooKeeper 3.8 ensemble on 127.0.0.1 with a cuttable TCP proxy on every
server-to-server link. Used by record.py; nothing here talks to kazoo.

Every server's own `server.N` line has its real quorum/election ports (it binds them); its lines
for the other servers point at a proxy port owned by this process, one per directed pair (A
connects to B through link A->B), for the quorum and the election port. Clients connect to the
servers' client ports directly, unless a scenario puts a `Proxy.link` in front of one.
With reconfigEnabled=false (the default) the servers keep their own static config ("Dynamic
reconfig is disabled, we don't store the last seen config"), so the asymmetric lines are fine.

The opening message of an election connection carries the sender's own election address; the
proxy rewrites it to the matching proxy port (see Ensemble.__init__), or the answering server would
connect back around the proxy. Link modes: "open" forwards; "blackhole" stops reading both sides of every connection (bytes
stay in the kernel buffers, as when packets are silently dropped and TCP keeps retrying) and
parks new connections until the mode changes; "reset" closes every connection and closes new
ones at once (as a refused/reset connection). Going back to "open" resumes parked connections.
"""
import os
import re
import select
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLIENT, PEER, ELECTION = 22180, 22280, 22380   # + server id
PROXY_PEER, PROXY_ELECTION = 22400, 22500      # + 10*from + to


def zxid_fields(z):
    """A zxid as hex and as its (epoch, counter) halves."""
    if z is None:
        return None
    return {"hex": hex(z), "epoch": z >> 32, "counter": z & 0xFFFFFFFF}


def session_fields(sid):
    """A session id in hex with its top byte: the id of the server that created it."""
    return {"hex": hex(sid), "creator_server": sid >> 56}


class Link:
    def __init__(self, proxy, tag, listen_port, target_port, rewrite=None):
        self.proxy, self.tag, self.target = proxy, tag, target_port
        self.rewrite = rewrite  # (old, new) bytes of equal length, for the initiator's first bytes
        self.mode = "open"
        self.conns = []  # [client_sock, upstream_sock]
        self.accepted = 0
        self.lock = threading.Lock()
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", listen_port))
        self.srv.listen(16)
        self.srv.settimeout(0.2)
        threading.Thread(target=self.accept_loop, daemon=True).start()

    def accept_loop(self):
        while not self.proxy.stopped:
            try:
                s, _ = self.srv.accept()
            except (socket.timeout, OSError):
                continue
            self.accepted += 1
            threading.Thread(target=self.serve, args=(s,), daemon=True).start()

    def serve(self, s):
        while self.mode == "blackhole" and not self.proxy.stopped:
            time.sleep(0.05)
        if self.mode == "reset" or self.proxy.stopped:
            s.close()
            return
        # A refused upstream connect is retried while the target server process is alive: the
        # client already got its TCP connection from us, so closing at once would turn "not
        # listening yet" (a new leader opens its quorum port a few ms after it decides to lead)
        # into "connected, then reset", which a ZooKeeper learner handles differently.
        up, deadline = None, time.monotonic() + 5
        while up is None:
            try:
                up = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                if time.monotonic() > deadline or not self.proxy.target_alive(self.target) or self.mode == "reset":
                    s.close()
                    return
                time.sleep(0.02)
        pair = [s, up]
        head = 0  # bytes of the initiator's stream seen so far (only its opening message is rewritten)
        with self.lock:
            self.conns.append(pair)
        try:
            while not self.proxy.stopped:
                if self.mode == "reset":
                    break
                if self.mode == "blackhole":
                    time.sleep(0.02)
                    continue
                r, _, _ = select.select(pair, [], [], 0.05)
                done = False
                for a in r:
                    b = up if a is s else s
                    try:
                        data = a.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        done = True
                        break
                    if a is s and self.rewrite and head < 256:
                        data = data[:256 - head].replace(*self.rewrite) + data[256 - head:]
                    if a is s:
                        head += len(data)
                    try:
                        b.sendall(data)
                    except OSError:
                        done = True
                        break
                if done:
                    break
        finally:
            for x in pair:
                try:
                    x.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                x.close()
            with self.lock:
                if pair in self.conns:
                    self.conns.remove(pair)


class Proxy:
    def __init__(self, target_alive=lambda port: True):
        self.links = {}
        self.stopped = False
        self.target_alive = target_alive

    def link(self, tag, listen_port, target_port, rewrite=None):
        self.links[tag] = Link(self, tag, listen_port, target_port, rewrite)
        return listen_port

    def set(self, pred, mode):
        """Sets the mode of every link whose tag matches pred; returns the tags."""
        tags = [t for t in self.links if pred(t)]
        for t in tags:
            self.links[t].mode = mode
        return sorted(map(str, tags))

    def stop(self):
        self.stopped = True
        for l in self.links.values():
            l.srv.close()


class Ensemble:
    def __init__(self, base, tick=2000, n=3, init_limit=10, sync_limit=5):
        self.base, self.tick, self.n = Path(base), tick, n
        self.init_limit, self.sync_limit = init_limit, sync_limit
        self.ids = list(range(1, n + 1))
        self.procs = {}
        self.proxy = Proxy(self.port_alive)
        for a in self.ids:
            for b in self.ids:
                if a != b:
                    self.proxy.link(("peer", a, b), PROXY_PEER + 10 * a + b, PEER + b)
                    # A server opening an election connection announces its own election address
                    # (its own zoo.cfg line: the real port), and a server with a higher id answers a
                    # connection from a lower id by closing it and connecting back to the announced
                    # address (QuorumCnxManager.handleConnection). Rewriting the announced address
                    # to the proxy port for b->a keeps that connection on a cuttable link.
                    self.proxy.link(("election", a, b), PROXY_ELECTION + 10 * a + b, ELECTION + b,
                                    rewrite=(f"127.0.0.1:{ELECTION + a}".encode(),
                                             f"127.0.0.1:{PROXY_ELECTION + 10 * b + a}".encode()))
        subprocess.run(["rm", "-rf", str(self.base)], check=True)
        for i in self.ids:
            d = self.dir(i)
            (d / "data").mkdir(parents=True)
            (d / "data" / "myid").write_text(f"{i}\n")
            lines = [f"tickTime={tick}", f"initLimit={init_limit}", f"syncLimit={sync_limit}",
                     f"dataDir={d / 'data'}", f"clientPort={CLIENT + i}", "clientPortAddress=127.0.0.1",
                     "admin.enableServer=false", "4lw.commands.whitelist=*"]
            for j in self.ids:
                if j == i:
                    lines.append(f"server.{j}=127.0.0.1:{PEER + j}:{ELECTION + j}")
                else:
                    lines.append(f"server.{j}=127.0.0.1:{PROXY_PEER + 10 * i + j}:{PROXY_ELECTION + 10 * i + j}")
            (d / "zoo.cfg").write_text("\n".join(lines) + "\n")

    def config(self):
        return {"servers": self.n, "tickTime": self.tick, "initLimit": self.init_limit,
                "syncLimit": self.sync_limit, "client_ports": {str(i): CLIENT + i for i in self.ids},
                "server_links": "each server-to-server TCP connection goes through a proxy in the recorder "
                                "(quorum and election ports), which a scenario can blackhole or reset",
                "zoo_cfg_server_1": (self.dir(1) / "zoo.cfg").read_text().splitlines()}

    def dir(self, i):
        return self.base / f"s{i}"

    def port(self, i):
        return CLIENT + i

    def start(self, i):
        out = open(self.dir(i) / "stdout", "ab")
        self.procs[i] = subprocess.Popen([str(HERE / "zk-ensemble.sh"), "run", str(self.dir(i))],
                                         stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def start_all(self):
        for i in self.ids:
            self.start(i)

    def kill(self, i, sig=signal.SIGKILL):
        p = self.procs.get(i)
        if p and p.poll() is None:
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
            if sig in (signal.SIGKILL, signal.SIGTERM):
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait(timeout=10)

    def port_alive(self, port):
        for i in self.ids:
            if port in (CLIENT + i, PEER + i, ELECTION + i):
                return self.alive(i)
        return False

    def alive(self, i):
        p = self.procs.get(i)
        return p is not None and p.poll() is None

    def stop_all(self):
        for i in list(self.procs):
            self.kill(i)
        self.proxy.stop()

    def four(self, i, word, timeout=3.0):
        """A four-letter word's answer, or None when the port does not answer."""
        try:
            with socket.create_connection(("127.0.0.1", self.port(i)), timeout=timeout) as s:
                s.settimeout(timeout)
                s.sendall(word.encode())
                text = b""
                while chunk := s.recv(4096):
                    text += chunk
            return text.decode()
        except OSError:
            return None

    def srvr(self, i):
        """`srvr` of server i: mode and Zxid, or serving=False with its exact answer."""
        text = self.four(i, "srvr")
        if text is None:
            return {"server": i, "answer": "no answer (port closed)"}
        out = {"server": i}
        for line in text.splitlines():
            if line.startswith("Mode:"):
                out["mode"] = line.split(":", 1)[1].strip()
            elif line.startswith("Zxid:"):
                out["zxid"] = zxid_fields(int(line.split(":", 1)[1].strip(), 16))
        if "mode" not in out:
            out["answer"] = text.strip()
        return out

    def srvr_all(self):
        return [self.srvr(i) for i in self.ids if self.alive(i)]

    def leader(self):
        for s in self.srvr_all():
            if s.get("mode") == "leader":
                return s["server"]
        return None

    def wait_serving(self, ids=None, timeout=60.0):
        """Waits until one leader and every other given server follows; returns the leader."""
        ids = ids or [i for i in self.ids if self.alive(i)]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            modes = {i: self.srvr(i).get("mode") for i in ids}
            leaders = [i for i, m in modes.items() if m == "leader"]
            if len(leaders) == 1 and all(m in ("leader", "follower") for m in modes.values()):
                return leaders[0]
            time.sleep(0.05)
        raise TimeoutError(f"ensemble {ids} not serving after {timeout}s: {modes}")

    def txns(self, i):
        """Server i's transaction log, decoded by ZooKeeper's own TxnLogToolkit."""
        logs = sorted((self.dir(i) / "data" / "version-2").glob("log.*"), key=lambda p: int(p.name[4:], 16))
        out = []
        for lf in logs:
            r = subprocess.run(["java", "-cp", "/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-nop.jar",
                                "org.apache.zookeeper.server.persistence.TxnLogToolkit", str(lf)],
                               capture_output=True, text=True, timeout=60)
            for line in r.stdout.splitlines():
                m = re.search(r"session (0x[0-9a-f]+) cxid (0x[0-9a-f]+) zxid (0x[0-9a-f]+) (\w+)(.*)", line)
                if m:
                    z = int(m.group(3), 16)
                    out.append({"zxid": zxid_fields(z), "session": m.group(1), "cxid": m.group(2),
                                "type": m.group(4), "detail": m.group(5).strip()})
        return out

    def log_lines(self, i, pattern):
        p = self.dir(i) / "zk.log"
        if not p.exists():
            return []
        rx = re.compile(pattern)
        return [l.split(" - ", 1)[-1] for l in p.read_text(errors="replace").splitlines() if rx.search(l)]
