// Serves the studio page's bundle, which has everything, at http://127.0.0.1:PORT/ (what
// `trunk serve studio.html` does, without Trunk): builds it with scripts/bundle.mjs into
// target/serve/, then rebuilds when a source file changes (fs.watch) and tells open pages to
// reload (Server-Sent Events). A failed rebuild keeps serving the last good build and prints
// cargo's error.
//   node scripts/serve.mjs [--dev] [--port N]
// Imported (tests/node/serve.test.mjs), it builds nothing: `resolveRequest` decides what a
// request gets, `createServer` serves a folder, `watchSources` reports changes.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..');
export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
};
/** Longest request target answered (a share link carries its scenario, up to 20,000 chars). */
export const MAX_URL = 32 * 1024;
const RELOAD = '/__lockstep_reload';

const answer = (status, message, extra = {}) => ({ status, message, ...extra });
const inside = (dir, file) => {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/**
 * What `method rawUrl` gets from the folder `dir`, never throwing: `{ status, message }`, with
 * `file` (its real path, always inside `dir`'s real path) and `type` when the status is 200.
 * Only GET and HEAD (405); a target that is not a path (400), too long (414), badly
 * percent-encoded or with NUL or a backslash (400); any `.`/`..` segment, also encoded (403);
 * an empty segment such as `//` (404); a symbolic link leading out of `dir` (403).
 */
export function resolveRequest(dir, method, rawUrl) {
  if (method !== 'GET' && method !== 'HEAD') return answer(405, 'method not allowed', { allow: 'GET, HEAD' });
  if (typeof rawUrl !== 'string' || !rawUrl.startsWith('/')) return answer(400, 'bad request target');
  if (rawUrl.length > MAX_URL) return answer(414, 'request target too long');
  let p;
  try {
    p = decodeURIComponent(rawUrl.split(/[?#]/, 1)[0]);
  } catch {
    return answer(400, 'malformed percent-encoding');
  }
  if (/[\0\\]/.test(p)) return answer(400, 'NUL or backslash in the path');
  const parts = p.slice(1).split('/');
  if (parts.some((s) => s === '.' || s === '..')) return answer(403, 'dot segment in the path');
  if (parts.slice(0, -1).includes('')) return answer(404, 'not found');
  if (parts.at(-1) === '') parts[parts.length - 1] = 'index.html';
  // The pages hand over to full.html and studio.html; here the studio bundle is the only one.
  if (parts.length === 1 && ['full.html', 'studio.html'].includes(parts[0])) parts[0] = 'index.html';
  try {
    const base = fs.realpathSync(dir);
    const wanted = path.join(base, ...parts);
    if (!inside(base, wanted)) return answer(403, 'outside the served folder');
    const file = fs.realpathSync(wanted);
    if (!inside(base, file)) return answer(403, 'outside the served folder');
    const stat = fs.statSync(file);
    if (!stat.isFile()) return answer(404, 'not found');
    return answer(200, 'ok', { file, size: stat.size, type: TYPES[path.extname(file)] ?? 'application/octet-stream' });
  } catch {
    return answer(404, 'not found'); // missing, a name too long, a loop of links, …
  }
}

/** The request handler for the folder `dir`; `listeners` collects live-reload streams. */
export function createHandler(dir, listeners = new Set()) {
  return (req, res) => {
    try {
      if (req.method === 'GET' && req.url.split(/[?#]/, 1)[0] === RELOAD) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        res.write(': connected\n\n');
        listeners.add(res);
        req.on('close', () => listeners.delete(res));
        return;
      }
      const r = resolveRequest(dir, req.method, req.url);
      if (r.status !== 200) {
        const headers = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
        if (r.allow) headers.allow = r.allow;
        res.writeHead(r.status, headers).end(req.method === 'HEAD' ? undefined : `${r.message}\n`);
        return;
      }
      res.writeHead(200, {
        'content-type': r.type,
        'content-length': r.size,
        'cache-control': 'no-store',
        'access-control-allow-origin': '*',
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // A rebuild may remove the file between the check and the read: drop the response.
      fs.createReadStream(r.file).on('error', () => res.destroy()).pipe(res);
    } catch (e) {
      console.error(`serve: ${req.method} ${JSON.stringify(req.url)}: ${e.stack}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
}

/** An HTTP server for `dir` (headers up to 64 KiB: long share links reach the 414 check). */
export function createServer(dir, listeners) {
  return http.createServer({ maxHeaderSize: 64 * 1024 }, createHandler(dir, listeners));
}

const SOURCE_DIRS = ['src', 'styles', 'public'];
const SOURCE_FILES = /^(studio\.html|Cargo\.(toml|lock))$/;

/**
 * Calls `changed` once a burst of changes to what a build reads (`src/`, `styles/`, `public/`,
 * `studio.html`, `Cargo.toml`, `Cargo.lock` under `dir`) has been quiet for `quiet` ms. Uses
 * fs.watch (recursive: inotify on Linux since Node 20, FSEvents on macOS, Windows natively);
 * where that fails, polls the modification times every 700 ms. Returns a function that stops.
 */
export function watchSources(dir, changed, { quiet = 150 } = {}) {
  let timer;
  const poke = () => {
    clearTimeout(timer);
    timer = setTimeout(changed, quiet);
  };
  const watchers = [];
  let polling;
  const stop = () => {
    clearTimeout(timer);
    clearInterval(polling);
    for (const w of watchers.splice(0)) w.close();
  };
  const poll = (why) => {
    console.error(`serve: watching files failed (${why}); polling every 700 ms instead`);
    stop();
    let seen = newest(dir);
    polling = setInterval(() => {
      const now = newest(dir);
      if (now !== seen) {
        seen = now;
        poke();
      }
    }, 700);
  };
  try {
    for (const d of SOURCE_DIRS.filter((d) => fs.existsSync(path.join(dir, d)))) {
      watchers.push(fs.watch(path.join(dir, d), { recursive: true }, poke));
    }
    watchers.push(fs.watch(dir, (_, name) => {
      if (name === null || SOURCE_FILES.test(name)) poke();
    }));
    for (const w of watchers) w.on('error', (e) => poll(e.message));
  } catch (e) {
    poll(e.message);
  }
  return stop;
}

/** Newest modification time under the sources a build reads (0 where a file vanished). */
function newest(dir, rel = '') {
  let t = 0;
  try {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) {
        if (rel === '' && !SOURCE_DIRS.includes(e.name)) continue;
        t = Math.max(t, newest(dir, r));
      } else if (rel !== '' || SOURCE_FILES.test(e.name)) {
        t = Math.max(t, fs.statSync(path.join(dir, r)).mtimeMs);
      }
    }
  } catch {
    // Removed while we looked: the next poll sees the settled tree.
  }
  return t;
}

async function main() {
  const { bundle } = await import('./bundle.mjs');
  const args = process.argv.slice(2);
  const release = !args.includes('--dev');
  const port = Number(args.includes('--port') ? args[args.indexOf('--port') + 1] : process.env.PORT ?? 8080);
  const out = path.join(root, 'target', release ? 'serve' : 'serve-dev');
  const listeners = new Set();

  async function build() {
    const t = Date.now();
    const next = `${out}.next`;
    fs.rmSync(next, { recursive: true, force: true });
    await bundle('studio.html', next, { as: 'index.html', release, reload: true });
    fs.rmSync(out, { recursive: true, force: true });
    fs.renameSync(next, out);
    console.log(`serve: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }

  // One build at a time; changes during a build ask for one more after it.
  let building = false;
  let again = false;
  async function rebuild() {
    if (building) {
      again = true;
      return;
    }
    building = true;
    do {
      again = false;
      console.log('serve: a source changed, rebuilding…');
      try {
        await build();
        for (const l of listeners) l.write('data: reload\n\n');
      } catch (e) {
        console.error(`serve: the rebuild failed (still serving the last good build): ${e.message}`);
      }
    } while (again);
    building = false;
  }

  await build();
  createServer(out, listeners).listen(port, '127.0.0.1', () => {
    console.log(`\n  Lockstep is at http://127.0.0.1:${port}/  (${release ? 'release' : 'debug'} build; Ctrl-C stops)\n`);
  });
  watchSources(root, rebuild);
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === here) await main();
