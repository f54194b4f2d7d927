#!/usr/bin/env python3
"""Records request traces of the real Curator 5.4.0 and kazoo 2.11.0 lock recipes against a real
ZooKeeper 3.8.0, through the decoding proxy in zkproxy.py.

Usage: tests/recipes/record/record.py [SITUATION ...]   (default: all; see SITUATIONS below)
Writes tests/recipes/traces/<situation>.json. See README.md beside this file.
"""
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import zkproxy  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
TRACES = HERE.parent / "traces"
ZK_SERVER = ROOT / "tests" / "fidelity" / "zk-server.sh"
ZK_PORT = int(os.environ.get("ZK_RECIPES_PORT", "21820"))
PORTS = {"C1": 22001, "C2": 22002, "C3": 22003, "X": 22009}
CLASSES = Path(os.environ.get("CURATOR_DRIVER_CLASSES", "/tmp/lockstep-recipes-classes"))
JARS = ["curator-recipes", "curator-framework", "curator-client", "zookeeper", "zookeeper-jute",
        "guava", "slf4j-api", "slf4j-simple", "netty-handler", "netty-transport", "netty-common",
        "netty-buffer", "netty-resolver", "netty-codec", "netty-transport-native-unix-common",
        "netty-transport-native-epoll", "commons-io", "commons-lang3"]
CLASSPATH = ":".join([str(CLASSES)] + [f"/usr/share/java/{j}.jar" for j in JARS])
SESSION_TIMEOUT_MS = 6000
CURATOR_RETRY = "ExponentialBackoffRetry(baseSleepTimeMs=1000, maxRetries=3)"
KAZOO_RETRY = ("kazoo defaults: KazooClient connection_retry/command_retry None (the client's own "
               "reconnect loop); Lock.acquire uses its internal KazooRetry(max_tries=None, i.e. unlimited)")
QUIET_S = 0.8      # a step has settled when no non-ping frame moved for this long
EVENT_WAIT_S = 40  # longest wait for an expected driver event

UUID36 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
UUID32 = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")
IPV4 = re.compile(r"^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$")

def curator_common(tracker):
    return ("CuratorFrameworkFactory.builder().connectString(127.0.0.1:<proxy port>)"
            f".sessionTimeoutMs({SESSION_TIMEOUT_MS}).connectionTimeoutMs(15000)"
            ".retryPolicy(new ExponentialBackoffRetry(1000, 3))"
            + (".ensembleTracker(true) (Curator's default): the ensemble tracker's /zookeeper/config "
               "reads are in this trace. " if tracker else
               ".ensembleTracker(false): the ensemble tracker is off, so the /zookeeper/config getData(watch) "
               "calls at connect (and their checkWatches at close) are not in this trace. ")
            + "Each client is its own CuratorFramework on its own proxy port and runs its recipe calls on "
            "its own Java thread. ")


def kazoo_common(identifier):
    return (f"KazooClient(hosts=127.0.0.1:<proxy port>, timeout={SESSION_TIMEOUT_MS / 1000}) per client; "
            + ("Lock(path, identifier=label)" if identifier else "Lock(path) (no identifier)")
            + " made once per client right after start; each client runs acquire/release on its own "
            "Python thread. ")


def S(label):
    return ("start", label)


def A(cmd, *expect):
    """Send a driver command; wait for the expected driver events (if any), then for quiet."""
    return ("cmd", cmd, list(expect))


def W(*expect):
    return ("wait", list(expect))


def FREEZE_ON(label, op, path_part):
    """Arms the proxy: freeze LABEL as its next request `op` with `path_part` in the path arrives
    (that request is held)."""
    return ("freeze_on", label, op, path_part)


def FROZEN(label):
    """Waits until the armed freeze has happened."""
    return ("wait_frozen", label)


def CLIENT_CLOSED(label):
    """Waits until the client has closed its frozen connection (e.g. on its read timeout)."""
    return ("wait_client_closed", label)


def OP(label, op, settle=True, **fields):
    """Wait until the proxy has seen (and the server answered) a request `op` from `label` since
    this step began, with the given field values; then, if `settle`, wait for quiet as usual."""
    return ("wait_op", label, op, fields, settle)


SITUATIONS = {
    "curator_mutex_three": dict(
        lib="curator", recipe="mutex", path="/locks/m",
        observed="Observed: as zookeeper.md §12 says. The first create2 fails with NoNode (zxid 4 consumed); Curator then goes top-down over the ancestors: exists(/locks) NoNode, createContainer(/locks), exists(/locks/m) NoNode, createContainer(/locks/m), and repeats the create2. Holders send getChildren2 without watch; waiters getData(watch) their immediate predecessor; releases are a single delete; no checkWatches anywhere (every waiter's watch fired before its release). Notifications carry no zxid (the header zxid is -1).",
        notes="InterProcessMutex('/locks/m'); /locks does not exist at the start.",
        steps=[S("C1"), S("C2"), S("C3"),
               A("acquire C1", "C1 acquired"), A("acquire C2"), A("acquire C3"),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released", "C3 acquired"),
               A("release C3", "C3 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed"), A("close C3", "C3 closed")]),
    "curator_waiter_expired_hijack": dict(
        lib="curator", recipe="mutex", path="/locks/m",
        observed="Observed: the hijacking connect makes the server drop C2's connection; C2 resumes (connect with its old session id, last_zxid_seen 7) and is told SessionExpired (timeout 0); Curator reports SUSPENDED, LOST, RECONNECTED and opens session 2. The blocked acquire goes on in session 2: getChildren2 (own node 0000000001 gone), delete(old node) NoNode, then after the retry policy's 1000 ms sleep a create2 with a new UUID (0000000002), getChildren2, getData(watch) on C1's node; C1's delete wakes it. DIFFERS from §12: with this ordering C2's final release sends NO checkWatches, because C2 re-watched the same path with the same watcher in session 2 and that watch fired; the checkWatches for the dead session's watch only appears when C2 gets the lock without watching again (see curator_waiter_expired_hijack_release_during_retry). zxid 8 is X's closeSession, 9 the createSession of C2's session 2 (createSession txns are not requests, so they are not in the log).",
        notes=("InterProcessMutex('/locks/m'). C2's session is expired by hijack: the recorder opens a raw "
               "connection through proxy label X (port 22009) with C2's session id and password (a "
               "ConnectRequest with resume), which makes the server drop C2's own connection, then sends "
               "closeSession on it. X's entries carry session_of: C2."),
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2"),
               ("hijack", "C2"), OP("C2", "getData", watch=True),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_waiter_expired_hijack_release_during_retry": dict(
        lib="curator", recipe="mutex", path="/locks/m",
        observed="Observed: C1's delete (zxid 11) lands between C2's NoNode delete of its old node and its new create2; the new node 0000000002 is the only child, so C2 holds the lock with no watch. On release C2 first sends checkWatches(any) for /locks/m/..-lock-0000000000 — the path its session-1 watcher had watched (the watcher is still in Curator's removal list because it never saw a node event) — answered NoWatcher, then delete. This is the §12 behaviour, but it needs this particular interleaving.",
        notes=("As curator_waiter_expired_hijack, but C1 releases while C2's acquire, in its new session, "
               "sleeps in the retry policy (1000 ms) between the NoNode delete of its old node and the "
               "create2 of the new one: the recorder sends C1's release as soon as that delete's reply "
               "has passed the proxy."),
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2"),
               ("hijack", "C2"), OP("C2", "delete", settle=False, result="NoNode"),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_waiter_expired_timeout": dict(
        lib="curator", recipe="mutex", path="/locks/m",
        observed="Observed: the server expires C2's session 1 on its own (zxid 8, the closeSession txn, is not a request and so not in the log; zxid 9 is session 2's createSession). C2's connection timed out client-side (SUSPENDED ~3.3 s after the freeze) and Curator declared LOST itself 6 s later (simulated session expiry) and built a new ZooKeeper handle, so after the unfreeze C2's first connect to reach the server is a NEW session (resume false), not a resume answered SessionExpired as in the hijack case; its reconnect attempts during the freeze were refused by the proxy (see proxy_notes). Then the same continuation as the hijack case: getChildren2, delete(old node) NoNode, create2 (new UUID), getChildren2, getData(watch) on C1's node; C2 gets the lock after C1's delete. No checkWatches at C2's release.",
        notes=("InterProcessMutex('/locks/m'). C2's session ends by time-out: the proxy freezes all of C2's "
               "traffic (frames held both ways, new connections on C2's port refused) for 12 s, longer than "
               "the 6000 ms session timeout plus one tick, then unfreezes."),
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2"),
               ("freeze", "C2"), ("sleep", 12.0), ("unfreeze", "C2"), OP("C2", "getData", watch=True),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_reentrant": dict(
        lib="curator", recipe="mutex", path="/locks/m",
        observed='Observed: as §12: the second acquire and the first release send nothing; the last release is one delete.',
        notes="InterProcessMutex('/locks/m'); C1 acquires twice and releases twice on the same thread.",
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C1", "C1 acquired"), A("acquire C2"),
               A("release C1", "C1 released"),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_acquire_timeout": dict(
        lib="curator", recipe="mutex", path="/locks/m",
        observed="Observed: as §12: C2 does create2, getChildren2, getData(watch), and after the wait times out one more getChildren2 + getData(watch) round, then delete of its own node (no checkWatches/removeWatches); acquire returns false. When C1 releases later, C2 still receives the NodeDeleted for C1's node.",
        notes="InterProcessMutex('/locks/m'); C2 calls acquire(2000, MILLISECONDS) while C1 holds.",
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2 2000", "C2 not-acquired"),
               A("release C1", "C1 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_rwlock": dict(
        lib="curator", recipe="rwlock", path="/locks/rw",
        observed='Observed: as §12/§9.7: read node _c_<uuid>-__READ__, write node _c_<uuid>-__WRIT__ in one directory with one counter. The writer (seq 1) watches the reader (seq 0); the second reader (seq 2) watches the writer (the first earlier write node), not its immediate predecessor in name order; each release is one delete; wake-ups re-list with getChildren2.',
        notes="InterProcessReadWriteLock('/locks/rw'); readLock()/writeLock() of each client's own object.",
        steps=[S("C1"), S("C2"), S("C3"),
               A("read_acquire C1", "C1 acquired read"), A("write_acquire C2"), A("read_acquire C3"),
               A("read_release C1", "C1 released read", "C2 acquired write"),
               A("write_release C2", "C2 released write", "C3 acquired read"),
               A("read_release C3", "C3 released read"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed"), A("close C3", "C3 closed")]),
    "curator_rwlock_reader_release_wakes_nobody": dict(
        lib="curator", recipe="rwlock", path="/locks/rw",
        observed="Observed: as §12: the writer C3 (seq 2) watches C2's read node (seq 1), its immediate predecessor; C1's release (delete of seq 0) wakes nobody; C2's release wakes C3.",
        notes="InterProcessReadWriteLock('/locks/rw'): two readers hold, a writer waits behind the second.",
        steps=[S("C1"), S("C2"), S("C3"),
               A("read_acquire C1", "C1 acquired read"), A("read_acquire C2", "C2 acquired read"),
               A("write_acquire C3"),
               A("read_release C1", "C1 released read"),
               A("read_release C2", "C2 released read", "C3 acquired write"),
               A("write_release C3", "C3 released write"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed"), A("close C3", "C3 closed")]),
    "curator_semaphore_two_leases": dict(
        lib="curator", recipe="semaphore", path="/locks/s", max_leases=2,
        observed="Observed (more detail than §12): every acquire takes the internal mutex under /locks/s/locks (create2 _c_<uuid>-lock-, getChildren2 without watch), then create2 EPHEMERAL_SEQUENTIAL /locks/s/leases/_c_<uuid>-lease-, then getChildren2(/locks/s/leases, watch=TRUE) even when a lease is free at once, then checkWatches(/locks/s/leases, any) (answer ok), then delete of its internal-mutex node. The first lease create fails with NoNode: Curator then sends exists for each ancestor from the top (/locks ok, /locks/s ok, /locks/s/leases NoNode) and createContainer(/locks/s/leases). Because checkWatches only checks, every acquirer's child watch on the leases directory stays on the server: C1 is notified (NodeChildrenChanged) when C2 creates its lease, C2 when C3 creates its lease, and C3's last watch fires when C2 returns its lease. C3, the waiter, holds the internal mutex (its lock node 0000000002) while waiting; C1's lease delete wakes it: getChildren2(watch) with 2 children, then checkWatches, then delete of its internal-mutex node. Returning a lease is one delete.",
        notes="InterProcessSemaphoreV2('/locks/s', maxLeases=2); acquire() = one lease; returnLease(lease).",
        steps=[S("C1"), S("C2"), S("C3"),
               A("lease_acquire C1", "C1 acquired lease"), A("lease_acquire C2", "C2 acquired lease"),
               A("lease_acquire C3"),
               A("lease_return C1", "C1 returned lease", "C3 acquired lease"),
               A("lease_return C2", "C2 returned lease"),
               A("lease_return C3", "C3 returned lease"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed"), A("close C3", "C3 closed")]),
    "curator_semaphore_mutex": dict(
        lib="curator", recipe="semaphore_mutex", path="/locks/sm",
        observed="Observed: InterProcessSemaphoreMutex = InterProcessSemaphoreV2 with maxLeases 1 under /locks/sm (internal mutex /locks/sm/locks, leases /locks/sm/leases). C1: internal-mutex create2 (NoNode first, containers /locks, /locks/sm, /locks/sm/locks), lease create2 (NoNode first, exists /locks ok, /locks/sm ok, /locks/sm/leases NoNode, createContainer /locks/sm/leases), getChildren2(leases, watch), checkWatches(leases), delete internal-mutex node. C2 waits holding the internal mutex (getChildren2(leases, watch) showed 2 leases); C1's release is a single delete of its lease; C2 re-lists, checkWatches, deletes its internal-mutex node. C1's leftover watch fired when C2 created its lease; C2's own leftover watch fires when C2 deletes its own lease at release.",
        notes="InterProcessSemaphoreMutex('/locks/sm').",
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2"),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "kazoo_lock_three": dict(
        lib="kazoo", recipe="lock", path="/locks/m",
        observed="Observed: as §12: the first Lock's acquire does exists(/locks/m) NoNode, exists(/locks) NoNode, exists(/) ok (walking up), then create(/locks) and create(/locks/m) (plain persistent, empty data, top-down); later Lock objects do one exists(/locks/m). Then create (not create2) EPHEMERAL_SEQUENTIAL <uuid32>__lock__ with the identifier as data, getChildren (not getChildren2, no watch), getData(immediate predecessor, watch); release = delete. No checkWatches/removeWatches.",
        notes="kazoo Lock('/locks/m', identifier) with identifiers C1, C2, C3; /locks does not exist at the start.",
        steps=[S("C1"), S("C2"), S("C3"),
               A("acquire C1", "C1 acquired"), A("acquire C2"), A("acquire C3"),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released", "C3 acquired"),
               A("release C3", "C3 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed"), A("close C3", "C3 closed")]),
    "kazoo_cancel": dict(
        lib="kazoo", recipe="lock", path="/locks/m",
        observed="Observed: as §12: cancel() makes C2's acquire raise CancelledError and delete its node at once (zxid 9); its getData watch on C1's node stays on the server, so C2 still receives NodeDeleted when C1 releases. C3's watch on C2's node fires; C3 re-lists and watches C1's node; C1's release wakes C3. Two notifications caused by one delete (C1's, zxid 10) go to different connections; their relative order in this log depends on the proxy's threads, not only on the server (re-recordings put C2's NodeDeleted before C3's or after C3's following getChildren).",
        notes=("kazoo Lock('/locks/m', identifier). C2's lock.cancel() is called from the driver's command "
               "thread while C2's acquire blocks on C2's own thread."),
        steps=[S("C1"), S("C2"), S("C3"),
               A("acquire C1", "C1 acquired"), A("acquire C2"), A("acquire C3"),
               A("cancel C2", "C2 cancel-called", "C2 error acquire CancelledError"),
               A("release C1", "C1 released", "C3 acquired"),
               A("release C3", "C3 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed"), A("close C3", "C3 closed")]),
    "kazoo_cancel_cleanup_lost": dict(
        lib="kazoo", recipe="lock", path="/locks/m",
        observed="Observed: cancel() wakes C2's acquire, which sends delete of its own node (held by the proxy). kazoo's read timeout drops the connection about 3.6 s later; the delete fails with ConnectionLoss, _best_effort_cleanup swallows it, and acquire raises CancelledError at once (SUSPENDED and the error in the same millisecond). kazoo reconnects into the same session (connect resume ok) and never sends the delete again (nor setWatches: kazoo 2.11 drops its watches on a connection loss). C2's node 0000000001 stays for the 5.7 s C2's session lives on; C3, which watches it, hears nothing until C2 closes its client: that closeSession (zxid 9) deletes the node, C3 is notified, lists and watches C1's node, and gets the lock after C1's release.",
        notes=("kazoo Lock('/locks/m', identifier). C2's lock.cancel() is called while C2 waits; the proxy "
               "freezes C2 as its delete of its own node arrives (the delete is held, then dropped with the "
               "connection kazoo closes on its read timeout). C2 is unfrozen as soon as kazoo has closed that "
               "connection, so it reconnects within its session. 4 s later C2 closes its client; then C1 releases. (C1 "
               "releases only after C2's close because kazoo drops its watches when a connection is lost and "
               "does not set them again on reconnect, which the simulated client at the time did not model; it does now, see kazoo_waiter_disconnected.)"),
        steps=[S("C1"), S("C2"), S("C3"),
               A("acquire C1", "C1 acquired"), A("acquire C2"), A("acquire C3"),
               FREEZE_ON("C2", "delete", "/locks/m/"),
               A("cancel C2", "C2 cancel-called"), CLIENT_CLOSED("C2"), ("unfreeze", "C2"),
               W("C2 error acquire CancelledError"), ("sleep", 4.0),
               A("close C2", "C2 closed"),
               A("release C1", "C1 released", "C3 acquired"),
               A("release C3", "C3 released"),
               A("close C1", "C1 closed"), A("close C3", "C3 closed")]),
    "kazoo_waiter_disconnected": dict(
        lib="kazoo", recipe="lock", path="/locks/m",
        observed=("Observed: kazoo's read timeout drops C2's frozen connection (SUSPENDED at 6.19 s, 2.8 s after the freeze); kazoo clears its watchers then (each gets a NONE event; the waiting acquire wakes and queues its getChildren). C1's delete of the watched node (zxid 7) notifies nobody: C2's connection is gone and kazoo never sends setWatches. C2's reconnects are refused while frozen (3 attempts, 0.16 then 0.32 s apart: the back-off after a whole pass of its one-host list); unfrozen, it resumes its session with a connect and no setWatches, and the queued getChildren finds its own node first: acquired, with no notification at all."),
        notes=("kazoo Lock('/locks/m', identifier). C2 waits on C1's node (getData with a watch); the "
               "proxy freezes C2 until kazoo's read timeout drops the connection (SUSPENDED: kazoo "
               "clears its watchers and calls each with a NONE event, which wakes the waiting acquire); "
               "while C2 is disconnected C1 releases; then C2 is unfrozen and reconnects within its "
               "session."),
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2"),
               ("freeze", "C2"), CLIENT_CLOSED("C2"),
               A("release C1", "C1 released"),
               ("unfreeze", "C2"), W("C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "kazoo_no_identifier": dict(
        lib="kazoo", recipe="lock", path="/locks/m", identifier=False,
        observed="Observed: as kazoo_lock_three, except that every lock node is created with empty data (\"\"): Lock(path) without an identifier writes str(identifier or \"\"), and getData of a predecessor returns \"\".",
        notes="kazoo Lock('/locks/m') with no identifier (kazoo's default); /locks does not exist at the start.",
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2"),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_semaphore_parent_missing": dict(
        lib="curator", recipe="semaphore", path="/locks/s", max_leases=1,
        observed="Observed: a create2 that fails with NoNode is sent again, after the parents are made (exists from the top, createContainer for each missing one), under the SAME protected name: the internal mutex's create2 under <uuid1> both times, the lease's under <uuid2> both times (ZKPaths.mkdirs and the second create run inside the same CreateBuilder call, whose protected id is drawn once). Each new acquire draws new UUIDs (C2: <uuid3> for its internal-mutex node, <uuid4> for its lease). Otherwise as curator_semaphore_mutex.",
        notes=("InterProcessSemaphoreV2('/locks/s', maxLeases=1); /locks does not exist at the start, so "
               "both the internal mutex's first create2 and the first lease create2 fail with NoNode. "
               "UUIDs are numbered (<uuidN>: the same N is the same UUID), to show which create reuses "
               "which protected name."),
        steps=[S("C1"), S("C2"),
               A("lease_acquire C1", "C1 acquired lease"), A("lease_acquire C2"),
               A("lease_return C1", "C1 returned lease", "C2 acquired lease"),
               A("lease_return C2", "C2 returned lease"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_ensemble_tracker": dict(
        lib="curator", recipe="mutex", path="/locks/m", ensemble_tracker=True,
        observed="Observed: with the ensemble tracker on, each client sends getData(/zookeeper/config, watch=true) twice right after its session is established (EnsembleTracker.start() and its CONNECTED listener each call reset(); this standalone server answers ok with empty data) and checkWatches(/zookeeper/config, any) just before its closeSession (close() -> removeWatchers(); the watch never fired). Nothing else differs from an ensembleTracker(false) run: the lock's requests, their order and the zxids are the same (reads and checkWatches take no zxid).",
        notes="InterProcessMutex('/locks/m') with Curator's default ensembleTracker(true); /locks does not exist at the start.",
        steps=[S("C1"), S("C2"),
               A("acquire C1", "C1 acquired"), A("acquire C2"),
               A("release C1", "C1 released", "C2 acquired"),
               A("release C2", "C2 released"),
               A("close C1", "C1 closed"), A("close C2", "C2 closed")]),
    "curator_semaphore_mutex_lost_internal_mutex": dict(
        lib="curator", recipe="semaphore_mutex", path="/locks/sm",
        observed="Observed: C2's held lease create2 is dropped with its connection (the server closed it at the hijack). C2 resumes, is told SessionExpired, Curator reports SUSPENDED, LOST, RECONNECTED and opens session 2, and C2's acquire goes on where it was, without taking the internal mutex again: getChildren(/locks/sm/leases) (opcode getChildren, no watch: the protected-mode lookup of a retried create; nothing found), create2 of a lease (0000000002) under a protected name not seen before in this log, getChildren2(watch) showing 3 leases -> waits. Meanwhile the expiry deleted C2's internal-mutex node, so C1 took the internal mutex (NodeDeleted, getChildren2), created its lease (0000000001) and waits with 2 leases. When C3 returns its lease both are notified, both list 2 leases for 1 allowed, and both wait for ever: neither acquire returns (no driver event for C1 or C2), though nobody holds a lease. C3's leftover watch on the leases fired when C1 created its lease.",
        notes=("InterProcessSemaphoreMutex('/locks/sm'). C3 holds the lease. C2 takes the internal mutex "
               "(/locks/sm/locks) and the proxy freezes C2 as its lease create2 arrives (that request is "
               "held, then dropped with its connection). C1's acquire waits behind C2's internal-mutex "
               "node. C2's session is expired by hijack; then C2 is unfrozen. C3 returns its lease. The "
               "driver quits without closing C1 and C2 (their acquires never return)."),
        steps=[S("C1"), S("C2"), S("C3"),
               A("acquire C3", "C3 acquired"),
               FREEZE_ON("C2", "create2", "/leases/"), A("acquire C2"), FROZEN("C2"),
               A("acquire C1"),
               ("hijack", "C2"), ("sleep", 1.0), ("unfreeze", "C2"), OP("C2", "getChildren2", watch=True),
               A("release C3", "C3 released"),
               ("sleep", 3.0),
               A("close C3", "C3 closed")]),
}


def srvr(port):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"srvr")
        text = b""
        while chunk := s.recv(4096):
            text += chunk
    return text.decode()


def start_server():
    data_dir = f"/tmp/lockstep-recipes-zk-{ZK_PORT}"
    proc = subprocess.Popen([str(ZK_SERVER), str(ZK_PORT), data_dir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if proc.poll() is not None:
            raise RuntimeError("ZooKeeper exited; is Debian's `zookeeper` package installed?")
        try:
            if "Zxid:" in srvr(ZK_PORT):
                return proc
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("ZooKeeper did not start")


def compile_curator_driver():
    CLASSES.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-d", str(CLASSES), "-cp", CLASSPATH, str(HERE / "CuratorDriver.java")],
                   check=True)


class Driver:
    """The Java or Python driver subprocess and the events it prints."""

    def __init__(self, sit, stderr_path):
        if sit["lib"] == "curator":
            cmd = ["java", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                   "-Dorg.slf4j.simpleLogger.showDateTime=true", "-cp", CLASSPATH, "CuratorDriver",
                   sit["recipe"], sit["path"], str(sit.get("max_leases", 1)),
                   str(sit.get("ensemble_tracker", False)).lower()]
        else:
            cmd = [sys.executable, str(HERE / "kazoo_driver.py"), sit["path"]]
            if not sit.get("identifier", True):
                cmd.append("--no-identifier")
        self.err = open(stderr_path, "w")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                     text=True, bufsize=1)
        self.events = []          # (seconds, "LABEL what") in arrival order
        self.unclaimed = []
        self.cv = threading.Condition()
        self.t0 = time.time()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            line = line.strip()
            if not line.startswith("EV "):
                continue
            with self.cv:
                self.events.append((round(time.time() - self.t0, 3), line[3:]))
                self.unclaimed.append(line[3:])
                self.cv.notify_all()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, wanted, timeout):
        """Waits until each wanted event (a prefix of an event line) has arrived; returns the missing ones."""
        end = time.time() + timeout
        missing = list(wanted)
        with self.cv:
            while missing:
                for w in list(missing):
                    hit = next((u for u in self.unclaimed if u.startswith(w)), None)
                    if hit is not None:
                        self.unclaimed.remove(hit)
                        missing.remove(w)
                left = end - time.time()
                if not missing or left <= 0:
                    break
                self.cv.wait(min(left, 0.2))
        return missing

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=20)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        self.err.close()


def wait_for_op(proxy, start_at, label, opname, fields, timeout):
    end = time.time() + timeout
    while time.time() < end:
        with proxy.lock:
            for e in proxy.log[start_at:]:
                if e["c"] == label and e["op"] == opname and "result" in e and \
                        all(e.get(k) == v for k, v in fields.items()):
                    return True
        time.sleep(0.02)
    return False


def hijack(proxy, label):
    """Expires LABEL's session: a raw connection through proxy label X resumes the session (the
    server then drops LABEL's own connection) and closes it with closeSession."""
    sid, passwd = proxy.current_session(label)
    s = socket.create_connection(("127.0.0.1", PORTS["X"]), timeout=10)
    body = struct.pack(">iqiq", 0, 0, SESSION_TIMEOUT_MS, sid) + struct.pack(">i", len(passwd)) + passwd + b"\0"
    s.sendall(struct.pack(">i", len(body)) + body)

    def frame():
        hdr = b""
        while len(hdr) < 4:
            hdr += s.recv(4 - len(hdr))
        n, = struct.unpack(">i", hdr)
        data = b""
        while len(data) < n:
            data += s.recv(n - len(data))
        return data

    resp = frame()
    _, timeout, got_sid = struct.unpack_from(">iiq", resp, 0)
    if got_sid != sid:
        raise RuntimeError(f"hijack: server answered session {got_sid:#x}, timeout {timeout}")
    close = struct.pack(">ii", 1, -11)
    s.sendall(struct.pack(">i", len(close)) + close)
    frame()
    s.close()
    return f"{sid:#x}"


KEEP_KEYS_FIRST = ["c", "session", "session_of", "op"]
DROP_KEYS = {"stat", "protocol_version", "read_only"}


class Normaliser:
    def __init__(self):
        self.raw_ips = set()
        self.uuid_kinds = set()
        self.uuids = {}       # raw UUID -> its number, in order of first appearance

    def _number(self, m):
        return f"<uuid{self.uuids.setdefault(m.group(0), len(self.uuids) + 1)}>"

    def s(self, v, is_data=False):
        if not isinstance(v, str):
            return v
        if is_data and IPV4.match(v):
            self.raw_ips.add(v)
            return "<ip>"
        if UUID36.search(v):
            self.uuid_kinds.add("36-char dashed (Curator)")
        v = UUID36.sub(self._number, v)
        if UUID32.search(v):
            self.uuid_kinds.add("32-hex (kazoo)")
        return UUID32.sub(self._number, v)

    def value(self, key, v):
        if isinstance(v, list):
            return [self.value(key, x) for x in v]
        if isinstance(v, dict):
            return {k: self.value(k, x) for k, x in v.items() if k not in DROP_KEYS}
        return self.s(v, is_data=key in ("data", "data_returned"))


def seq_key(name):
    m = re.search(r"(\d{10})$", name)
    return (0, m.group(1), name) if m else (1, "", name)


CONNECT_ORDER = ["timeout_ms", "requested_timeout_ms", "resume", "last_zxid_seen", "result"]


def render_log(proxy, norm):
    out = []
    for e in proxy.log:
        owner = proxy.session_of(e)
        r = {"c": e["c"]}
        if owner:
            r["session"] = owner[1]
            if owner[0] != e["c"]:
                r["session_of"] = owner[0]
        else:
            r["session"] = None
        r["op"] = e["op"]
        items = list(e.items())
        if e["op"] == "connect":
            items.sort(key=lambda kv: CONNECT_ORDER.index(kv[0]) if kv[0] in CONNECT_ORDER else -1)
        for k, v in items:
            if k.startswith("_") or k in KEEP_KEYS_FIRST or k in DROP_KEYS:
                continue
            r[k] = norm.value(k, v)
            if k == "children" and isinstance(r[k], list):
                r[k] = sorted(r[k], key=seq_key)
        out.append(r)
    return out


def run_situation(name):
    sit = SITUATIONS[name]
    server = start_server()
    proxy = zkproxy.Proxy(PORTS, upstream=("127.0.0.1", ZK_PORT))
    proxy.start()
    driver = Driver(sit, f"/tmp/lockstep-recipes-{name}.driver.log")
    actions, auto_notes = [], []
    try:
        for step in sit["steps"]:
            kind = step[0]
            t_step = time.time()
            if kind != "wait_op":
                step_log_start = len(proxy.log)
            if kind == "start":
                label = step[1]
                actions.append(f"{label} start")
                driver.send(f"start {label} {PORTS[label]}")
                missing = driver.expect([f"{label} started"], EVENT_WAIT_S)
            elif kind == "cmd":
                cmd, label = step[1].split()[0], step[1].split()[1]
                rest = step[1].split()[2:]
                actions.append(f"{label} {cmd}" + (f" {' '.join(rest)}" if rest else ""))
                driver.send(step[1])
                missing = driver.expect(step[2], EVENT_WAIT_S)
            elif kind == "wait":
                missing = driver.expect(step[1], EVENT_WAIT_S)
            elif kind == "wait_op":
                _, label, opname, fields, settle = step
                start_at = step_log_start
                missing = [] if wait_for_op(proxy, start_at, label, opname, fields, EVENT_WAIT_S) \
                    else [f"{label} {opname} {fields}"]
            elif kind == "freeze_on":
                proxy.freeze_on(step[1], step[2], step[3])
                actions.append(f"freeze {step[1]} on its next {step[2]} of *{step[3]}*")
                missing = []
            elif kind == "wait_client_closed":
                missing = [] if proxy.wait_client_closed(step[1], EVENT_WAIT_S) else [f"{step[1]} closed"]
            elif kind == "wait_frozen":
                missing = [] if proxy.triggered.wait(EVENT_WAIT_S) else [f"{step[1]} frozen"]
            elif kind == "hijack":
                sid = hijack(proxy, step[1])
                actions.append(f"X hijack {step[1]}'s session and closeSession it")
                missing = []
            elif kind == "freeze":
                proxy.freeze(step[1])
                actions.append(f"freeze {step[1]}")
                missing = []
            elif kind == "unfreeze":
                proxy.unfreeze(step[1])
                actions.append(f"unfreeze {step[1]}")
                missing = []
            elif kind == "sleep":
                time.sleep(step[1])
                actions.append(f"wait {step[1]} s")
                missing = []
            else:
                raise ValueError(kind)
            if missing:
                auto_notes.append(f"after action {len(actions)} ({actions[-1]}): expected driver event(s) "
                                  f"{missing} did not arrive within {EVENT_WAIT_S} s")
            if kind not in ("freeze", "sleep", "freeze_on", "wait_frozen", "wait_client_closed") and \
                    not (kind == "wait_op" and not step[4]):
                if not proxy.wait_quiet(QUIET_S, timeout=60, since=t_step):
                    auto_notes.append(f"after action {len(actions)}: traffic did not settle within 60 s")
        time.sleep(0.5)
    finally:
        driver.quit()
        time.sleep(0.3)
        proxy.stop()
        server.terminate()
        server.wait()

    norm = Normaliser()
    log = render_log(proxy, norm)
    negotiated = sorted({e["timeout_ms"] for e in log if e["op"] == "connect" and e.get("result") == "ok"})
    leftover = [u for u in driver.unclaimed if not u.split(" ", 1)[1].startswith("state ")]
    notes = [curator_common(sit.get("ensemble_tracker", False)) if sit["lib"] == "curator"
             else kazoo_common(sit.get("identifier", True)),
             sit["notes"], sit.get("observed", "")]
    notes += auto_notes
    if leftover:
        notes.append(f"driver events not waited for by any action: {leftover}")
    if norm.raw_ips:
        notes.append(f"node data '<ip>' stands for the client's IP address as Curator writes it "
                     f"(ASCII dotted quad, raw value(s) here: {sorted(norm.raw_ips)}).")
    if norm.uuid_kinds:
        notes.append(f"'<uuidN>' replaces {', '.join(sorted(norm.uuid_kinds))} UUIDs in paths and data, "
                     "numbered in order of first appearance in the log (the same N is the same UUID).")
    notes.append("children lists are sorted by the recorder by their 10-digit sequence suffix (the server returns them in hash order); "
                 "Stats are not kept; 'data_returned' is getData's reply data; pings are omitted; 'zxid' "
                 "is the reply header's zxid (for a notification, the zxid the server put in its header).")
    trace = {
        "name": name,
        "library": "curator 5.4.0" if sit["lib"] == "curator" else "kazoo 2.11.0",
        "server": "zookeeper 3.8.0",
        "session_timeout_ms": negotiated[0] if len(negotiated) == 1 else negotiated,
        "requested_session_timeout_ms": SESSION_TIMEOUT_MS,
        "retry_policy": CURATOR_RETRY if sit["lib"] == "curator" else KAZOO_RETRY,
        "ensemble_tracker": sit.get("ensemble_tracker", False) if sit["lib"] == "curator" else None,
        "uuids_numbered": True,
        "notes": " ".join(n.strip() for n in notes if n.strip()),
        "actions": actions,
        "driver_events": [f"{t:7.3f} {e}" for t, e in driver.events],
        "sessions": {k: [f"{sid:#x}" for sid in v] for k, v in proxy.sessions.items()},
        "proxy_notes": proxy.debug,
        "log": log,
    }
    if trace["ensemble_tracker"] is None:
        del trace["ensemble_tracker"]
    TRACES.mkdir(parents=True, exist_ok=True)
    target = TRACES / f"{name}.json"
    target.write_text(json.dumps(trace, indent=1, ensure_ascii=False) + "\n")
    print(f"recorded {target.relative_to(ROOT)} ({len(log)} log entries)")


def main(argv):
    names = argv or list(SITUATIONS)
    if any(SITUATIONS[n]["lib"] == "curator" for n in names):
        compile_curator_driver()
    for n in names:
        run_situation(n)


if __name__ == "__main__":
    main(sys.argv[1:])
