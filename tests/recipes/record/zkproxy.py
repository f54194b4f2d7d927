"""A decoding TCP proxy for the ZooKeeper client protocol (jute framing), used to record what
real client libraries send.

One listening port per client label (e.g. C1 -> 22001), each forwarding to one upstream server.
Every frame is decoded in both directions: the ConnectRequest/ConnectResponse, every request
(RequestHeader xid + type, then the body), every reply (ReplyHeader xid, zxid, err, then the body,
matched to its request by xid on that connection) and every watch notification (xid -1).
Pings (xid -2) are forwarded but not logged.

`log` holds one dict per request, connect and notification, appended in the order the proxy
forwarded the frame (requests: to the server; notifications: to the client). Replies are merged
into their request's dict. `freeze(label)` stops forwarding both ways for that label (frames are
read and held; new connections on its port are refused, i.e. accepted and closed at once);
`unfreeze(label)` forwards what was held, or, for a connection that one side closed meanwhile,
drops the held frames and closes the other side too. `freeze_on(label, op, path_part)` freezes the
label as a request of that op whose path contains `path_part` arrives from it (that request is
the first frame held); `triggered` is set then.
"""
import socket
import struct
import threading
import time

OPCODES = {1: "create", 2: "delete", 3: "exists", 4: "getData", 5: "setData", 6: "getACL", 7: "setACL",
           8: "getChildren", 9: "sync", 11: "ping", 12: "getChildren2", 13: "check", 14: "multi",
           15: "create2", 16: "reconfig", 17: "checkWatches", 18: "removeWatches", 19: "createContainer",
           20: "deleteContainer", 21: "createTTL", 22: "multiRead", 100: "auth", 101: "setWatches",
           102: "sasl", 103: "getEphemerals", 104: "getAllChildrenNumber", 105: "setWatches2",
           106: "addWatch", 107: "whoAmI", -10: "createSession", -11: "closeSession", -1: "error"}
ERRORS = {0: "ok", -1: "SystemError", -2: "RuntimeInconsistency", -3: "DataInconsistency",
          -4: "ConnectionLoss", -5: "MarshallingError", -6: "Unimplemented", -7: "OperationTimeout",
          -8: "BadArguments", -12: "UnknownSession", -13: "NewConfigNoQuorum", -14: "ReconfigInProgress",
          -100: "APIError", -101: "NoNode", -102: "NoAuth", -103: "BadVersion",
          -108: "NoChildrenForEphemerals", -110: "NodeExists", -111: "NotEmpty", -112: "SessionExpired",
          -113: "InvalidCallback", -114: "InvalidACL", -115: "AuthFailed", -118: "SessionMoved",
          -119: "NotReadOnly", -120: "EphemeralOnLocalSession", -121: "NoWatcher", -122: "RequestTimeout",
          -123: "ReconfigDisabled", -124: "SessionClosedRequireSaslAuth", -125: "QuotaExceeded",
          -127: "Throttled"}
MODES = {0: "persistent", 1: "ephemeral", 2: "persistent_sequential", 3: "ephemeral_sequential",
         4: "container", 5: "persistent_with_ttl", 6: "persistent_sequential_with_ttl"}
EVENTS = {-1: "None", 1: "NodeCreated", 2: "NodeDeleted", 3: "NodeDataChanged", 4: "NodeChildrenChanged",
          5: "DataWatchRemoved", 6: "ChildWatchRemoved", 7: "PersistentWatchRemoved"}
STATES = {0: "Disconnected", 3: "SyncConnected", 4: "AuthFailed", 5: "ConnectedReadOnly",
          6: "SaslAuthenticated", 7: "Closed", -112: "Expired"}
WATCHER_TYPES = {1: "children", 2: "data", 3: "any", 4: "persistent", 5: "persistent_recursive"}
ADD_WATCH_MODES = {0: "persistent", 1: "persistent_recursive"}
PING_XID, NOTIFICATION_XID = -2, -1


class Reader:
    """Reads jute-encoded values from one frame."""

    def __init__(self, data):
        self.b, self.o = data, 0

    def left(self):
        return len(self.b) - self.o

    def int(self):
        v, = struct.unpack_from(">i", self.b, self.o)
        self.o += 4
        return v

    def long(self):
        v, = struct.unpack_from(">q", self.b, self.o)
        self.o += 8
        return v

    def bool(self):
        v = self.b[self.o] != 0
        self.o += 1
        return v

    def buffer(self):
        n = self.int()
        if n < 0:
            return None
        v = bytes(self.b[self.o:self.o + n])
        self.o += n
        return v

    def string(self):
        v = self.buffer()
        return None if v is None else v.decode("utf-8", "surrogateescape")

    def vector(self, item):
        n = self.int()
        return None if n < 0 else [item() for _ in range(n)]

    def strings(self):
        return self.vector(self.string)

    def acl(self):
        perms = self.int()
        return {"perms": perms, "scheme": self.string(), "id": self.string()}

    def stat(self):
        names = ["czxid", "mzxid", "ctime", "mtime", "version", "cversion", "aversion",
                 "ephemeralOwner", "dataLength", "numChildren", "pzxid"]
        kinds = "qqqqiiiqiiq"
        out = {}
        for n, k in zip(names, kinds):
            out[n] = self.long() if k == "q" else self.int()
        return out


def data_field(raw):
    """Node data as a UTF-8 string, or {"hex": ...} if it is not UTF-8; None for null data."""
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return {"hex": raw.hex()}


def acl_is_open(acl):
    return acl == [{"perms": 31, "scheme": "world", "id": "anyone"}]


def decode_request_body(op, r, entry):
    """Fills `entry` with the fields of a request body of opcode `op`."""
    if op in (1, 15, 19, 21):
        entry["path"] = r.string()
        entry["data"] = data_field(r.buffer())
        acl = r.vector(r.acl)
        flags = r.int()
        entry["mode"] = MODES.get(flags, flags)
        if op == 21:
            entry["ttl"] = r.long()
        if not acl_is_open(acl):
            entry["acl"] = acl
    elif op == 2:
        entry["path"] = r.string()
        entry["version"] = r.int()
    elif op in (3, 4, 8, 12):
        entry["path"] = r.string()
        entry["watch"] = r.bool()
    elif op == 5:
        entry["path"] = r.string()
        entry["data"] = data_field(r.buffer())
        entry["version"] = r.int()
    elif op in (6, 9, 20, 103, 104):
        entry["path"] = r.string()
    elif op == 7:
        entry["path"] = r.string()
        entry["acl"] = r.vector(r.acl)
        entry["version"] = r.int()
    elif op == 13:
        entry["path"] = r.string()
        entry["version"] = r.int()
    elif op in (14, 22):
        ops = []
        while True:
            t, done, _err = r.int(), r.bool(), r.int()
            if done:
                break
            sub = {"op": OPCODES.get(t, t)}
            decode_request_body(t, r, sub)
            ops.append(sub)
        entry["ops"] = ops
    elif op in (17, 18):
        entry["path"] = r.string()
        t = r.int()
        entry["type"] = WATCHER_TYPES.get(t, t)
    elif op == 100:
        entry["auth_type"] = r.int()
        entry["scheme"] = r.string()
        entry["auth"] = data_field(r.buffer())
    elif op == 102:
        entry["token_length"] = len(r.buffer() or b"")
    elif op in (101, 105):
        entry["relative_zxid"] = r.long()
        entry["data_watches"] = r.strings()
        entry["exist_watches"] = r.strings()
        entry["child_watches"] = r.strings()
        if op == 105:
            entry["persistent_watches"] = r.strings()
            entry["persistent_recursive_watches"] = r.strings()
    elif op == 106:
        entry["path"] = r.string()
        m = r.int()
        entry["mode"] = ADD_WATCH_MODES.get(m, m)
    if r.left() and op not in (11, -11):
        entry["undecoded_bytes"] = r.left()


def decode_reply_body(op, r, entry):
    """Merges the fields of a successful reply body of opcode `op` into `entry`."""
    if op == 1:
        entry["created"] = r.string()
    elif op in (15, 19, 21):
        entry["created"] = r.string()
        entry["stat"] = r.stat()
    elif op in (3, 5):
        entry["stat"] = r.stat()
    elif op == 4:
        entry["data_returned"] = data_field(r.buffer())
        entry["stat"] = r.stat()
    elif op == 8:
        entry["children"] = r.strings()
    elif op == 12:
        entry["children"] = r.strings()
        entry["stat"] = r.stat()
    elif op == 9:
        entry["synced"] = r.string()
    elif op in (14, 22):
        results = []
        while True:
            t, done, err = r.int(), r.bool(), r.int()
            if done:
                break
            res = {"op": OPCODES.get(t, t)}
            if t == 1:
                res["created"] = r.string()
            elif t in (15, 19, 21):
                res["created"] = r.string()
                res["stat"] = r.stat()
            elif t == 5:
                res["stat"] = r.stat()
            elif t == -1:
                code = r.int()
                res["result"] = ERRORS.get(code, code)
            elif t == 4:
                res["data_returned"] = data_field(r.buffer())
                res["stat"] = r.stat()
            elif t == 8:
                res["children"] = r.strings()
            if "result" not in res:
                res["result"] = "ok"
            results.append(res)
        entry["results"] = results
        failed = [x["result"] for x in results if x["result"] not in ("ok", "RolledBack", 0)]
        real = [x for x in failed if x != "RuntimeInconsistency"]
        if op == 14 and (real or failed):
            entry["result"] = (real or failed)[0]


class Conn:
    """One client connection through the proxy."""

    def __init__(self, proxy, label, csock, num):
        self.proxy, self.label, self.csock, self.num = proxy, label, csock, num
        self.ssock = None
        self.session_id = None       # from the ConnectResponse (or the ConnectRequest when resuming)
        self.connect_entry = None
        self.pending = {}            # xid -> request entry
        self.seen_connect_req = False
        self.seen_connect_resp = False
        self.eof = {"client": False, "server": False}
        self.held = {"client": [], "server": []}  # frames read from that side while frozen
        self.client_frames = 0       # frames read from the client (the first is the ConnectRequest)
        self.closed = False


class Proxy:
    def __init__(self, labels, upstream=("127.0.0.1", 21820), host="127.0.0.1"):
        self.labels = dict(labels)          # label -> listening port
        self.upstream = upstream
        self.host = host
        self.lock = threading.RLock()
        self.log = []
        self.debug = []                     # human-readable notes on refused/dropped things
        self.frozen = set()
        self.sessions = {}                  # label -> [session id, ...] in order of creation
        self.passwords = {}                 # session id -> password bytes
        self.owner = {}                     # session id -> (label, index)
        self.conns = []
        self.last_activity = time.time()
        self.stopping = False
        self.listeners = []
        self.t0 = time.time()
        self.trigger = None                 # (label, op name, path part) for freeze_on
        self.triggered = threading.Event()

    # ---- public control ---------------------------------------------------------------------
    def start(self):
        for label, port in self.labels.items():
            ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            ls.bind((self.host, port))
            ls.listen(16)
            ls.settimeout(0.2)
            self.listeners.append(ls)
            threading.Thread(target=self._accept_loop, args=(label, ls), daemon=True).start()

    def stop(self):
        self.stopping = True
        for ls in self.listeners:
            ls.close()
        with self.lock:
            for c in self.conns:
                self._close(c)

    def freeze(self, label):
        with self.lock:
            self.frozen.add(label)
            self.debug.append(f"{self._t()} freeze {label}")

    def freeze_on(self, label, op, path_part):
        with self.lock:
            self.trigger = (label, op, path_part)
            self.triggered.clear()

    def _trips(self, conn, frame):
        """Whether this client frame is the request `freeze_on` waits for (lock held)."""
        if self.trigger is None or conn.label != self.trigger[0] or conn.client_frames == 1:
            return False
        try:
            r = Reader(frame[4:])
            r.int()
            op = OPCODES.get(r.int())
            return op == self.trigger[1] and self.trigger[2] in r.string()
        except Exception:
            return False

    def wait_client_closed(self, label, timeout):
        """Waits until a frozen connection of `label` has been closed by its client."""
        end = time.time() + timeout
        while time.time() < end:
            with self.lock:
                if any(c.label == label and c.eof["client"] for c in self.conns):
                    return True
            time.sleep(0.01)
        return False

    def unfreeze(self, label):
        with self.lock:
            self.frozen.discard(label)
            self.debug.append(f"{self._t()} unfreeze {label}")
            for c in self.conns:
                if c.label == label and not c.closed:
                    self._flush(c)

    def pending_count(self):
        with self.lock:
            return sum(len(c.pending) for c in self.conns if not c.closed)

    def wait_quiet(self, quiet=0.5, timeout=30.0, since=None):
        """Waits until no request is unanswered and no non-ping frame moved for `quiet` s (and at
        least `quiet` s have passed since `since`, e.g. when the action was started)."""
        end = time.time() + timeout
        while time.time() < end:
            with self.lock:
                idle = time.time() - max(self.last_activity, since or 0)
                busy = sum(len(c.pending) for c in self.conns if not c.closed)
            if busy == 0 and idle >= quiet:
                return True
            time.sleep(0.05)
        return False

    def current_session(self, label):
        """(session id, password) of the label's newest session."""
        with self.lock:
            sid = self.sessions[label][-1]
            return sid, self.passwords[sid]

    # ---- internals --------------------------------------------------------------------------
    def _t(self):
        return f"{time.time() - self.t0:8.3f}"

    def _accept_loop(self, label, ls):
        n = 0
        while not self.stopping:
            try:
                cs, _ = ls.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            n += 1
            with self.lock:
                if label in self.frozen:
                    self.debug.append(f"{self._t()} {label}: refused a connection while frozen")
                    cs.close()
                    continue
            cs.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = Conn(self, label, cs, n)
            try:
                ss = socket.create_connection(self.upstream, timeout=5)
            except OSError as e:
                self.debug.append(f"{self._t()} {label}: upstream connect failed: {e}")
                cs.close()
                continue
            ss.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.ssock = ss
            with self.lock:
                self.conns.append(conn)
            threading.Thread(target=self._pump, args=(conn, "client"), daemon=True).start()
            threading.Thread(target=self._pump, args=(conn, "server"), daemon=True).start()

    def _pump(self, conn, side):
        """Reads frames from `side` ("client" or "server") and forwards them to the other side."""
        src = conn.csock if side == "client" else conn.ssock
        src.settimeout(0.2)
        buf = b""
        while not conn.closed and not self.stopping:
            try:
                chunk = src.recv(65536)
            except socket.timeout:
                chunk = None
            except OSError:
                chunk = b""
            with self.lock:
                if chunk == b"":
                    conn.eof[side] = True
                    if conn.label not in self.frozen:
                        self._flush(conn)
                        self._close(conn)
                    return_now = True
                else:
                    return_now = False
                    if chunk:
                        buf += chunk
                        while len(buf) >= 4:
                            n, = struct.unpack_from(">i", buf, 0)
                            if len(buf) < 4 + n:
                                break
                            frame, buf = buf[:4 + n], buf[4 + n:]
                            if side == "client":
                                conn.client_frames += 1
                                if self._trips(conn, frame):
                                    if conn.label not in self.frozen:
                                        self._flush(conn)
                                    self.frozen.add(conn.label)
                                    self.debug.append(f"{self._t()} freeze {conn.label} on its "
                                                      f"{self.trigger[1]} of *{self.trigger[2]}*")
                                    self.trigger = None
                                    self.triggered.set()
                            conn.held[side].append(frame)
                    if conn.label not in self.frozen:
                        self._flush(conn)
            if return_now:
                return

    def _flush(self, conn):
        """Forwards held frames (lock held). A connection one side of which closed while frozen is
        torn down instead and its held frames dropped."""
        if conn.closed:
            return
        if conn.eof["client"] or conn.eof["server"]:
            dropped = len(conn.held["client"]) + len(conn.held["server"])
            if dropped:
                self.debug.append(f"{self._t()} {conn.label}#{conn.num}: dropped {dropped} held frame(s) "
                                  f"of a connection closed by the {'client' if conn.eof['client'] else 'server'}")
            # forward nothing more; frames already forwarded stand
            conn.held = {"client": [], "server": []}
            self._close(conn)
            return
        for side in ("client", "server"):
            frames, conn.held[side] = conn.held[side], []
            dst = conn.ssock if side == "client" else conn.csock
            for f in frames:
                try:
                    if side == "client":
                        self._on_request_frame(conn, f[4:])
                    else:
                        self._on_reply_frame(conn, f[4:])
                except Exception as e:  # never let a decoding bug break the stream
                    self.debug.append(f"{self._t()} decode error ({side}): {e!r}")
                try:
                    dst.sendall(f)
                except OSError:
                    self._close(conn)
                    return

    def _close(self, conn):
        if conn.closed:
            return
        conn.closed = True
        for s in (conn.csock, conn.ssock):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                s.close()
            except OSError:
                pass
        for xid, e in conn.pending.items():
            e.setdefault("result", "no reply (connection closed)")
        conn.pending.clear()

    def _entry(self, conn, op):
        e = {"c": conn.label, "_conn": conn, "op": op, "_t": round(time.time() - self.t0, 3)}
        self.log.append(e)
        return e

    def _on_request_frame(self, conn, body):
        r = Reader(body)
        if not conn.seen_connect_req:
            conn.seen_connect_req = True
            e = self._entry(conn, "connect")
            e["protocol_version"] = r.int()
            e["last_zxid_seen"] = r.long()
            e["requested_timeout_ms"] = r.int()
            sid = r.long()
            passwd = r.buffer()
            e["resume"] = sid != 0
            if sid:
                e["_req_session"] = sid
                conn.session_id = sid
            if r.left():
                e["read_only"] = r.bool()
            conn.connect_entry = e
            self.last_activity = time.time()
            return
        xid, op = r.int(), r.int()
        if xid == PING_XID or op == 11:
            return
        self.last_activity = time.time()
        e = self._entry(conn, OPCODES.get(op, f"op{op}"))
        e["_xid"], e["_type"] = xid, op
        decode_request_body(op, r, e)
        conn.pending[xid] = e

    def _on_reply_frame(self, conn, body):
        r = Reader(body)
        if not conn.seen_connect_resp:
            conn.seen_connect_resp = True
            e = conn.connect_entry
            r.int()  # protocol version
            timeout = r.int()
            sid = r.long()
            passwd = r.buffer()
            e["timeout_ms"] = timeout
            if sid == 0 or timeout <= 0:
                e["result"] = "SessionExpired"
            else:
                e["result"] = "ok"
                conn.session_id = sid
                self.passwords[sid] = passwd
                if sid not in self.owner:
                    lst = self.sessions.setdefault(conn.label, [])
                    lst.append(sid)
                    self.owner[sid] = (conn.label, len(lst))
            self.last_activity = time.time()
            return
        xid, zxid, err = r.int(), r.long(), r.int()
        if xid == PING_XID:
            return
        self.last_activity = time.time()
        if xid == NOTIFICATION_XID:
            e = self._entry(conn, "notification")
            t, state, path = r.int(), r.int(), r.string()
            e["event"] = EVENTS.get(t, t)
            if state != 3:
                e["state"] = STATES.get(state, state)
            e["path"] = path
            if zxid > 0:
                e["zxid"] = zxid
            return
        e = conn.pending.pop(xid, None)
        if e is None:
            e = self._entry(conn, "unmatched_reply")
            e["_xid"] = xid
        e["result"] = ERRORS.get(err, err)
        e["zxid"] = zxid
        if err == 0:
            decode_reply_body(e.get("_type"), r, e)

    def session_of(self, entry):
        """(label, index) of the session an entry belongs to."""
        conn = entry["_conn"]
        sid = conn.session_id or entry.get("_req_session")
        return self.owner.get(sid)
