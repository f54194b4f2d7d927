// Drives node-redlock (4.x or 5.x) with ioredis clients, one Redlock per client label, from JSON
// commands on stdin; prints one JSON event per line on stdout. Used by redlock_record.py.
//
//   node redlock_driver.mjs <install dir with node_modules/{redlock,ioredis}>
//
// Commands (one JSON object per line; every one has "id"):
//   {"cmd":"open","client":"A","ports":[17001,...],"settings":{...}}   5 ioredis clients + new Redlock(clients, settings)
//   {"cmd":"acquire","client":"A","lock":"A#1","resource":"locks:m","ttl":10000[,"options":{...}]}
//        4.x: redlock.lock(resource, ttl) (or lockWithOptions(resource, ttl, options))
//        5.x: redlock.acquire([resource], ttl[, options])
//   {"cmd":"extend","client":"A","lock":"A#1","ttl":10000}     lock.extend(ttl) (5.x: the returned lock replaces it)
//   {"cmd":"release","client":"A","lock":"A#1"}                4.x lock.unlock(), 5.x lock.release()
//   {"cmd":"quit"}                                             redlock.quit() for every client, then exit
// Events carry "t_ns" = process.hrtime.bigint() (CLOCK_MONOTONIC, the clock Python's
// time.monotonic_ns() reads) and, for lock calls, Date.now() values as the library sees them.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const installDir = process.argv[2];
const require = createRequire(join(installDir, "package.json"));
const Redis = require("ioredis");
const pkgDir = join(installDir, "node_modules", "redlock");
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
// What `import Redlock from "redlock"` gives: 5.x's "exports" import entry (ESM), 4.x's main (CJS).
const entry = pkg.exports ? pkg.exports["."].import : pkg.main;
const mod = await import(pathToFileURL(join(pkgDir, entry)).href);
const Redlock = mod.default;
const major = parseInt(pkg.version.replace(/^v/, ""), 10);
const ioredisVersion = JSON.parse(readFileSync(join(installDir, "node_modules", "ioredis", "package.json"), "utf8")).version;

const now = () => process.hrtime.bigint().toString();
const out = (ev) => process.stdout.write(JSON.stringify({ t_ns: now(), ...ev }) + "\n");

const clients = {};   // label -> {redlock, redis: [...], masterOf: Map(redis -> index)}
const locks = {};     // "A#1" -> Lock

function errInfo(e) {
  if (!e) return null;
  const info = { name: e.name, message: e.message };
  if (e.constructor && e.constructor.name && e.constructor.name !== e.name) info.class = e.constructor.name;
  if (typeof e.attempts === "number") info.attempts = e.attempts;
  else if (Array.isArray(e.attempts)) info.attempts = e.attempts.length;
  return info;
}

async function v5stats(label, attempts) {
  // 5.x: lock.attempts / error.attempts = array of promises of per-attempt stats, resolved once
  // all votes of that attempt are in.
  const c = clients[label];
  const res = [];
  for (const p of attempts) {
    const s = await p;
    res.push({
      votesFor: [...s.votesFor].map((r) => c.masterOf.get(r)).sort(),
      votesAgainst: [...s.votesAgainst.entries()].map(([r, e]) => ({ master: c.masterOf.get(r), error: errInfo(e) }))
        .sort((a, b) => a.master - b.master),
    });
  }
  return res;
}

function open(cmd) {
  const redis = cmd.ports.map((port, i) => {
    const r = new Redis(port, "127.0.0.1");
    for (const ev of ["connect", "ready", "close", "reconnecting", "end"]) {
      r.on(ev, (arg) => out({ ev: "ioredis", client: cmd.client, master: i, event: ev, ...(ev === "reconnecting" ? { delay: arg } : {}) }));
    }
    r.on("error", (e) => out({ ev: "ioredis", client: cmd.client, master: i, event: "error", error: errInfo(e) }));
    return r;
  });
  const redlock = new Redlock(redis, cmd.settings || {});
  const masterOf = new Map(redis.map((r, i) => [r, i]));
  // 4.x emits 'clientError' for each failed client call; 5.x emits 'error' (it adds its own no-op listener).
  redlock.on(major >= 5 ? "error" : "clientError", (e) => out({ ev: "redlock_error", client: cmd.client, error: errInfo(e) }));
  clients[cmd.client] = { redlock, redis, masterOf };
  out({ ev: "opened", id: cmd.id, client: cmd.client, redlock: pkg.version, ioredis: ioredisVersion });
}

function lockInfo(lock, callDate) {
  const d = Date.now();
  return {
    value: lock.value,
    expiration_minus_call: lock.expiration - callDate,
    expiration_minus_done: lock.expiration - d,
    valid_at_done: lock.expiration > d,
    attempts: Array.isArray(lock.attempts) ? lock.attempts.length : lock.attempts,
  };
}

async function run(cmd) {
  const c = clients[cmd.client];
  const callDate = Date.now();
  out({ ev: "call", id: cmd.id, client: cmd.client, action: cmd.cmd, lock: cmd.lock, call_date: callDate });
  try {
    let result = {};
    if (cmd.cmd === "acquire") {
      let lock;
      if (major >= 5) lock = await c.redlock.acquire([cmd.resource], cmd.ttl, cmd.options);
      else lock = cmd.options ? await c.redlock.lockWithOptions(cmd.resource, cmd.ttl, cmd.options)
                              : await c.redlock.lock(cmd.resource, cmd.ttl);
      locks[cmd.lock] = lock;
      result = lockInfo(lock, callDate);
      if (major >= 5) v5stats(cmd.client, lock.attempts).then((s) => out({ ev: "stats", id: cmd.id, client: cmd.client, stats: s }));
    } else if (cmd.cmd === "extend") {
      const lock = await locks[cmd.lock].extend(cmd.ttl);
      result = lockInfo(lock, callDate);
      if (major >= 5) {
        v5stats(cmd.client, lock.attempts).then((s) => out({ ev: "stats", id: cmd.id, client: cmd.client, stats: s }));
      } else {
        delete result.attempts;   // 4.x extend() returns the original lock; its `attempts` is the acquire's
        result.same_object = lock === locks[cmd.lock];
      }
      locks[cmd.lock] = lock;
    } else if (cmd.cmd === "release") {
      const r = major >= 5 ? await locks[cmd.lock].release() : await locks[cmd.lock].unlock();
      if (r && Array.isArray(r.attempts)) {
        result = { attempts: r.attempts.length };
        v5stats(cmd.client, r.attempts).then((s) => out({ ev: "stats", id: cmd.id, client: cmd.client, stats: s }));
      } else {
        result = { resolved_with: r === undefined ? "undefined" : r };
      }
    }
    out({ ev: "done", id: cmd.id, client: cmd.client, action: cmd.cmd, lock: cmd.lock, result: "ok", ...result });
  } catch (e) {
    out({ ev: "done", id: cmd.id, client: cmd.client, action: cmd.cmd, lock: cmd.lock, result: "error", error: errInfo(e) });
    if (major >= 5 && e && Array.isArray(e.attempts)) {
      v5stats(cmd.client, e.attempts).then((s) => out({ ev: "stats", id: cmd.id, client: cmd.client, stats: s }));
    }
  }
}

async function quit(cmd) {
  // redlock.quit() = client.quit() on every client. A client whose master is down and that still
  // has queued commands queues the QUIT too, so after 3 s every client is disconnect()ed instead.
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve("timeout"), 3000); });
  const all = Promise.all(Object.values(clients).map((c) => c.redlock.quit().catch((e) => out({ ev: "quit_error", error: errInfo(e) }))));
  const how = await Promise.race([all.then(() => "quit"), timeout]);
  clearTimeout(timer);
  if (how === "timeout") {
    out({ ev: "quit_timeout" });
    for (const c of Object.values(clients)) for (const r of c.redis) r.disconnect();
  }
  out({ ev: "quit", id: cmd.id });
  setTimeout(() => process.exit(0), 50);
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const cmd = JSON.parse(line);
  if (cmd.cmd === "open") open(cmd);
  else if (cmd.cmd === "quit") quit(cmd);
  else run(cmd);
});
out({ ev: "started", redlock: pkg.version, ioredis: ioredisVersion });
