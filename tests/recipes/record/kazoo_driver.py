#!/usr/bin/env python3
"""Drives kazoo 2.11.0 Lock for the recorder, one command per stdin line (same protocol as
CuratorDriver.java):
  start LABEL PORT      KazooClient(hosts=127.0.0.1:PORT, timeout=6.0).start(); Lock(PATH, LABEL)
                        (Lock(PATH) without an identifier with --no-identifier)
  acquire LABEL [SECS]  lock.acquire() (timeout if SECS given), on the client's own thread
  release LABEL         on the client's own thread
  cancel LABEL          lock.cancel(), called at once from the command thread (not the client's)
  close LABEL           client.stop(); client.close()
  quit
Usage: kazoo_driver.py PATH [--no-identifier]. Prints "EV LABEL what ..." lines on stdout.
"""
import queue
import sys
import threading

from kazoo.client import KazooClient

SESSION_TIMEOUT_S = 6.0
PATH = sys.argv[1]
IDENTIFIER = "--no-identifier" not in sys.argv[2:]
OUT = threading.Lock()


def ev(label, what):
    with OUT:
        print(f"EV {label} {what}", flush=True)


class Client:
    def __init__(self, label):
        self.label = label
        self.q = queue.Queue()
        self.zk = None
        self.lock = None
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            cmd, w = self.q.get()
            try:
                self.run(cmd, w)
            except Exception as e:  # report, keep going
                ev(self.label, f"error {cmd} {type(e).__name__}: {e}")

    def run(self, cmd, w):
        if cmd == "start":
            self.zk = KazooClient(hosts=f"127.0.0.1:{w[2]}", timeout=SESSION_TIMEOUT_S)
            self.zk.add_listener(lambda st: ev(self.label, f"state {st}"))
            self.zk.start(timeout=20)
            self.lock = self.zk.Lock(PATH, self.label) if IDENTIFIER else self.zk.Lock(PATH)
            ev(self.label, "started")
        elif cmd == "acquire":
            timeout = float(w[2]) if len(w) > 2 else None
            got = self.lock.acquire(timeout=timeout)
            ev(self.label, "acquired" if got else "not-acquired")
        elif cmd == "release":
            self.lock.release()
            ev(self.label, "released")
        elif cmd == "close":
            self.zk.stop()
            self.zk.close()
            ev(self.label, "closed")
        else:
            ev(self.label, f"unknown-command {cmd}")


def main():
    clients = {}
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "quit":
            break
        cmd, label = w[0], w[1]
        c = clients.get(label)
        if c is None:
            c = clients[label] = Client(label)
        if cmd == "cancel":
            try:
                c.lock.cancel()
                ev(label, "cancel-called")
            except Exception as e:
                ev(label, f"error cancel {type(e).__name__}: {e}")
            continue
        c.q.put((cmd, w))
    for c in clients.values():
        if c.zk is not None:
            c.zk._stopped.set()


if __name__ == "__main__":
    main()
