#!/usr/bin/env python3
"""Records lock-table scripts against a real PostgreSQL 15 (Debian's postgresql), for Lockstep.

Usage: tests/services/record_sql.py [tests/services/sql/NAME.pgsql ...]  (default: all)
Needs Debian's `postgresql` package and `pip install psycopg2-binary`; run as root (the server
runs as the `postgres` user in a private data directory, on a Unix socket in /tmp, port 25432).

Each script gets a fresh cluster with `locks(name text primary key, owner text, fence bigint,
expires_at bigint)` and a sequence `fence`. Connections are letters; each runs in autocommit
mode with explicit BEGIN/COMMIT, on its own thread so that a blocked statement does not stop
the script. Lines:
    A INSERT lock a [ttl=N]     INSERT ... VALUES (name, owner, nextval('fence'), now+N or NULL) RETURNING *
    A DELETE lock [owner=a] [fence=N]
    A TAKEOVER lock b ttl=N     UPDATE ... SET owner, fence = nextval, expires_at = now+N
                                WHERE name AND expires_at < now RETURNING *
    A FORUPDATE lock [nowait]   SELECT * ... FOR UPDATE [NOWAIT]
    A SELECT lock / A BEGIN / A COMMIT / A ROLLBACK
    B result                    the answer of B's statement that was waiting
    !close A                    close A's connection
    sleep N                     advance the script's clock by N ms ("now" is passed in, not read)
A statement that has not answered within 0.4 s is written as `(waits)`.
"""
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg2

HERE = Path(__file__).resolve().parent
PORT = 25432
BIN = next(Path("/usr/lib/postgresql").glob("*/bin"))
COLS = "name, owner, fence, expires_at"


def as_postgres(*args):
    subprocess.run(["su", "postgres", "-s", "/bin/sh", "-c", " ".join(args)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def sql_for(w, now):
    opt = lambda k: next((x[len(k):] for x in w if x.startswith(k)), None)
    name = w[1] if len(w) > 1 else ""
    if w[0] in ("BEGIN", "COMMIT", "ROLLBACK"):
        return w[0], ()
    if w[0] == "INSERT":
        ttl = opt("ttl=")
        return (f"INSERT INTO locks VALUES (%s, %s, nextval('fence'), %s) RETURNING {COLS}",
                (name, w[2], now + int(ttl) if ttl else None))
    if w[0] == "DELETE":
        q, p = "DELETE FROM locks WHERE name = %s", [name]
        if opt("owner="):
            q, p = q + " AND owner = %s", p + [opt("owner=")]
        if opt("fence="):
            q, p = q + " AND fence = %s", p + [int(opt("fence="))]
        return q, tuple(p)
    if w[0] == "TAKEOVER":
        return (f"UPDATE locks SET owner = %s, fence = nextval('fence'), expires_at = %s "
                f"WHERE name = %s AND expires_at < %s RETURNING {COLS}", (w[2], now + int(opt("ttl=")), name, now))
    if w[0] == "FORUPDATE":
        return f"SELECT {COLS} FROM locks WHERE name = %s FOR UPDATE" + (" NOWAIT" if "nowait" in w else ""), (name,)
    return f"SELECT {COLS} FROM locks WHERE name = %s", (name,)


def render(cur):
    rows = cur.fetchall() if cur.description else []
    tag = cur.statusmessage
    shown = " ".join(f"[{r[0]} {r[1]} {r[2]} {'-' if r[3] is None else r[3]}]" for r in rows)
    return f"{tag} {shown}" if shown else tag


class Conn:
    def __init__(self):
        self.c = psycopg2.connect(host="/tmp", port=PORT, dbname="postgres", user="postgres")
        self.c.autocommit = True
        self.jobs, self.results = queue.Queue(), queue.Queue()
        threading.Thread(target=self.work, daemon=True).start()

    def work(self):
        while True:
            q, p = self.jobs.get()
            try:
                with self.c.cursor() as cur:
                    cur.execute(q, p)
                    self.results.put(render(cur))
            except psycopg2.Error as e:
                self.results.put(f"ERROR {e.pgcode}")

    def answer(self, wait):
        try:
            return self.results.get(timeout=wait)
        except queue.Empty:
            return "(waits)"


def record(script):
    data = tempfile.mkdtemp(prefix="lockstep-pg-")
    shutil.chown(data, "postgres")
    as_postgres(f"{BIN}/initdb", "-D", data, "-A", "trust")
    server = subprocess.Popen(["su", "postgres", "-s", "/bin/sh", "-c",
                               f"exec {BIN}/postgres -D {data} -p {PORT} -k /tmp -c listen_addresses=''"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    conns, out, now = {}, [], 1000
    try:
        setup = None
        for _ in range(100):
            try:
                setup = psycopg2.connect(host="/tmp", port=PORT, dbname="postgres", user="postgres")
                break
            except psycopg2.OperationalError:
                time.sleep(0.1)
        if setup is None:
            raise RuntimeError("postgres did not start")
        setup.autocommit = True
        setup.cursor().execute("CREATE TABLE locks (name text PRIMARY KEY, owner text, fence bigint, expires_at bigint); "
                               "CREATE SEQUENCE fence")
        setup.close()
        for raw in script.read_text().splitlines():
            line, w = raw.strip(), raw.split()
            if not w or w[0].startswith("#"):
                out.append(raw)
            elif w[0] == "sleep":
                now += int(w[1])
                out.append(line)
            elif w[0] == "!close":
                conns.pop(w[1]).c.close()
                time.sleep(0.3)
                out.append(line)
            elif w[1:] == ["result"]:
                out.append(f"{line} -> {conns[w[0]].answer(3)}")
            else:
                conn = conns.setdefault(w[0], Conn())
                conn.jobs.put(sql_for(w[1:], now))
                out.append(f"{line} -> {conn.answer(0.4)}")
                time.sleep(0.1)
    finally:
        as_postgres(f"{BIN}/pg_ctl", "-D", data, "-m", "immediate", "stop")
        server.wait()
        shutil.rmtree(data, ignore_errors=True)
    script.with_suffix(".expected").write_text("\n".join(out) + "\n")
    print(f"recorded {script.name}")


if __name__ == "__main__":
    for s in [Path(a) for a in sys.argv[1:]] or sorted((HERE / "sql").glob("*.pgsql")):
        record(s)
