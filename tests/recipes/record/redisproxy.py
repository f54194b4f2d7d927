"""A RESP-decoding TCP proxy used to record what a Redis client library sends to each master.

One listening port per (client label, master): e.g. client A uses 17001..17005 for masters
0..4 (upstream 7001..7005), client B 17101..17105. The label and the master index of every
message therefore come from the port the client connected to.

Every request (an array of bulk strings, or an inline command) and every reply is decoded and
logged with a CLOCK_MONOTONIC timestamp in nanoseconds (`time.monotonic_ns()`, the clock that
node's `process.hrtime` reads too), the label, the master index and a per-(label, master)
connection number. RESP replies come back in request order on one connection, so each reply is
matched to the oldest unanswered request of its connection (`req` = that request's index in
the log). Connection opens/closes are logged as well.

Faults the recorder needs:
  * `set_master_up(master, False)` closes the listening sockets of that master for every label,
    so a client connecting gets ECONNREFUSED exactly as it would from a dead local redis-server;
    `set_master_up(master, True)` listens again. (Existing connections are not touched; when the
    redis-server behind them dies the proxy closes the client side too.)
  * `delay_requests(label, masters, ms, match, count)` holds the next `count` matching requests
    (per master) for `ms` before forwarding them upstream; later requests on that connection
    queue behind them, so the order on the connection is kept.

Run standalone (logs JSON lines to stdout):
    python3 redisproxy.py --map A:17001=7001,17002=7002 --map B:17101=7001
"""
import argparse
import asyncio
import json
import sys
import time


class Incomplete(Exception):
    pass


def _line(buf, pos):
    end = buf.find(b"\r\n", pos)
    if end < 0:
        raise Incomplete
    return buf[pos:end], end + 2


def _text(b):
    return b.decode("utf-8", errors="backslashreplace")


def parse_reply(buf, pos=0):
    """Decode one RESP2 (and the common RESP3) value at buf[pos:]; returns (value, next_pos).
    value: {"simple": s} | {"error": s} | {"integer": n} | {"bulk": s} | {"null": True}
    | {"array": [...]}.  Raises Incomplete."""
    if pos >= len(buf):
        raise Incomplete
    t = buf[pos:pos + 1]
    line, nxt = _line(buf, pos + 1)
    if t == b"+":
        return {"simple": _text(line)}, nxt
    if t == b"-":
        return {"error": _text(line)}, nxt
    if t == b":":
        return {"integer": int(line)}, nxt
    if t == b"$":
        n = int(line)
        if n < 0:
            return {"null": True}, nxt
        if len(buf) < nxt + n + 2:
            raise Incomplete
        return {"bulk": _text(buf[nxt:nxt + n])}, nxt + n + 2
    if t == b"*":
        n = int(line)
        if n < 0:
            return {"null": True}, nxt
        items = []
        for _ in range(n):
            v, nxt = parse_reply(buf, nxt)
            items.append(v)
        return {"array": items}, nxt
    if t == b"_":
        return {"null": True}, nxt
    if t == b"#":
        return {"boolean": line == b"t"}, nxt
    if t == b",":
        return {"double": _text(line)}, nxt
    raise ValueError("unknown RESP type %r" % t)


def parse_request(buf, pos=0):
    """Decode one client request: a RESP array of bulk strings, or an inline command.
    Returns (list of str, next_pos, inline?)."""
    if pos >= len(buf):
        raise Incomplete
    if buf[pos:pos + 1] == b"*":
        line, nxt = _line(buf, pos + 1)
        n = int(line)
        args = []
        for _ in range(max(n, 0)):
            if buf[nxt:nxt + 1] == b"":
                raise Incomplete
            if buf[nxt:nxt + 1] != b"$":
                raise ValueError("request element is not a bulk string")
            line, nxt = _line(buf, nxt + 1)
            m = int(line)
            if len(buf) < nxt + m + 2:
                raise Incomplete
            args.append(_text(buf[nxt:nxt + m]))
            nxt += m + 2
        return args, nxt, False
    line, nxt = _line(buf, pos)
    return [_text(x) for x in line.split()], nxt, True


class DelayRule:
    def __init__(self, label, masters, ms, match, count):
        self.label, self.ms, self.match = label, ms, match
        self.left = {m: count for m in masters}


class RedisProxy:
    def __init__(self, labels, upstream_ports, host="127.0.0.1"):
        """labels: {label: [listen port for master 0, 1, ...]}; upstream_ports: [port of master 0, ...]."""
        self.labels = labels
        self.upstream = upstream_ports
        self.host = host
        self.log = []            # dicts, in the order the proxy saw them
        self.servers = {}        # (label, master) -> asyncio.Server
        self.conn_count = {}     # (label, master) -> connections opened so far
        self.pending = 0         # requests forwarded and not answered yet
        self.delays = []
        self.writers = set()
        self.on_event = None     # optional callback(entry)

    def _emit(self, entry):
        entry["t_ns"] = time.monotonic_ns()
        self.log.append(entry)
        if self.on_event:
            self.on_event(entry)
        return len(self.log) - 1

    async def start(self):
        for m in range(len(self.upstream)):
            await self.set_master_up(m, True)

    async def set_master_up(self, master, up):
        for label, ports in self.labels.items():
            key = (label, master)
            if up and key not in self.servers:
                self.servers[key] = await asyncio.start_server(
                    lambda r, w, label=label, master=master: self._serve(label, master, r, w),
                    self.host, ports[master], reuse_address=True)
            elif not up and key in self.servers:
                srv = self.servers.pop(key)
                srv.close()   # stops listening at once: new connections are refused

    def delay_requests(self, label, masters, ms, match, count=1):
        self.delays.append(DelayRule(label, masters, ms, match, count))

    def _delay_for(self, label, master, args):
        for rule in self.delays:
            if rule.label == label and rule.left.get(master, 0) > 0 and rule.match(args):
                rule.left[master] -= 1
                return rule.ms
        return 0

    async def close(self):
        for key in list(self.servers):
            srv = self.servers.pop(key)
            srv.close()
        for w in list(self.writers):
            w.close()

    async def _serve(self, label, master, creader, cwriter):
        key = (label, master)
        self.conn_count[key] = conn = self.conn_count.get(key, 0) + 1
        base = {"label": label, "master": master, "conn": conn}
        self._emit(dict(base, kind="conn", event="open"))
        try:
            ureader, uwriter = await asyncio.open_connection(self.host, self.upstream[master])
        except OSError as e:
            self._emit(dict(base, kind="conn", event="upstream_refused", error=str(e)))
            cwriter.close()
            return
        self.writers.update((cwriter, uwriter))
        waiting = []                      # log indexes of unanswered requests, in order
        fwd = asyncio.Queue()             # (release time ns, raw bytes) towards the server
        closed = {"by": None}

        async def client_to_server():
            buf = b""
            while True:
                data = await creader.read(65536)
                if not data:
                    closed["by"] = closed["by"] or "client"
                    break
                buf += data
                while True:
                    try:
                        args, nxt, inline = parse_request(buf)
                    except Incomplete:
                        break
                    raw, buf = buf[:nxt], buf[nxt:]
                    entry = dict(base, kind="request", args=args)
                    if inline:
                        entry["inline"] = True
                    delay = self._delay_for(label, master, args)
                    if delay:
                        entry["held_ms"] = delay
                    idx = self._emit(entry)
                    waiting.append(idx)
                    self.pending += 1
                    fwd.put_nowait((time.monotonic_ns() + int(delay * 1e6), raw, idx))
            fwd.put_nowait(None)

        async def forwarder():
            while True:
                item = await fwd.get()
                if item is None:
                    break
                release, raw, idx = item
                now = time.monotonic_ns()
                if release > now:
                    await asyncio.sleep((release - now) / 1e9)
                    self.log[idx]["forwarded_t_ns"] = time.monotonic_ns()
                uwriter.write(raw)
                await uwriter.drain()
            if uwriter.can_write_eof():
                uwriter.write_eof()

        async def server_to_client():
            buf = b""
            while True:
                data = await ureader.read(65536)
                if not data:
                    closed["by"] = closed["by"] or "server"
                    break
                buf += data
                while True:
                    try:
                        value, nxt = parse_reply(buf)
                    except Incomplete:
                        break
                    raw, buf = buf[:nxt], buf[nxt:]
                    entry = dict(base, kind="reply", reply=value)
                    if waiting:
                        entry["req"] = waiting.pop(0)
                        self.pending -= 1
                    else:
                        entry["unsolicited"] = True
                    self._emit(entry)
                    cwriter.write(raw)
                    await cwriter.drain()

        tasks = [asyncio.ensure_future(c()) for c in (client_to_server, forwarder, server_to_client)]
        try:
            done, _ = await asyncio.wait([tasks[0], tasks[2]], return_when=asyncio.FIRST_COMPLETED)
            if tasks[2] not in done:
                # the client closed: let the last requests reach the server and its replies come back
                await asyncio.wait([tasks[2]], timeout=2.0)
        except Exception:
            pass
        finally:
            for t in tasks:
                t.cancel()
            for w in (cwriter, uwriter):
                try:
                    w.close()
                except Exception:
                    pass
                self.writers.discard(w)
            self.pending -= len(waiting)
            self._emit(dict(base, kind="conn", event="closed", by=closed["by"] or "proxy",
                            unanswered=len(waiting)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--map", action="append", required=True,
                    help="LABEL:listen=upstream,listen=upstream,... (one pair per master, in master order)")
    a = ap.parse_args(argv)
    labels, upstream = {}, None
    for spec in a.map:
        label, pairs = spec.split(":", 1)
        lp = [tuple(int(x) for x in p.split("=")) for p in pairs.split(",")]
        labels[label] = [l for l, _ in lp]
        ups = [u for _, u in lp]
        if upstream is not None and ups != upstream:
            sys.exit("every label must map to the same upstream ports")
        upstream = ups
    proxy = RedisProxy(labels, upstream)
    proxy.on_event = lambda e: print(json.dumps(e), flush=True)

    async def run():
        await proxy.start()
        await asyncio.Event().wait()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
