// Serves the full bundle at http://127.0.0.1:PORT/ (what `trunk serve full.html` does, without
// Trunk): builds it with scripts/bundle.mjs into target/serve/, then rebuilds when a source
// file changes and tells open pages to reload (Server-Sent Events). A failed rebuild keeps
// serving the last good build and prints cargo's error.
//   node scripts/serve.mjs [--dev] [--port N]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { bundle } from './bundle.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const release = !args.includes('--dev');
const port = Number(args.includes('--port') ? args[args.indexOf('--port') + 1] : process.env.PORT ?? 8080);
const out = path.join(root, 'target', release ? 'serve' : 'serve-dev');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
};
const listeners = new Set();

async function build() {
  const t = Date.now();
  const next = `${out}.next`;
  fs.rmSync(next, { recursive: true, force: true });
  await bundle('full.html', next, { as: 'index.html', release, reload: true });
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(next, out);
  console.log(`serve: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

function serve(req, res) {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/__lockstep_reload') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': connected\n\n');
    listeners.add(res);
    req.on('close', () => listeners.delete(res));
    return;
  }
  let p = decodeURIComponent(url.pathname);
  if (p.endsWith('/')) p += 'index.html';
  // The lean page hands over to full.html; here the full bundle is the only one.
  if (p === '/full.html') p = '/index.html';
  const file = path.join(out, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
  if (!file.startsWith(out) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404).end('not found');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
  });
  fs.createReadStream(file).pipe(res);
}

/** Newest modification time under the sources a build reads. */
function newest(dir = root, rel = '') {
  let t = 0;
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) {
      if (rel === '' && !['src', 'styles', 'public'].includes(e.name)) continue;
      t = Math.max(t, newest(dir, r));
    } else if (rel !== '' || /^(full\.html|Cargo\.(toml|lock))$/.test(e.name)) {
      t = Math.max(t, fs.statSync(path.join(dir, r)).mtimeMs);
    }
  }
  return t;
}

async function watch() {
  let seen = newest();
  for (;;) {
    await new Promise((r) => setTimeout(r, 700));
    const now = newest();
    if (now === seen) continue;
    seen = now;
    console.log('serve: a source changed, rebuilding…');
    try {
      await build();
      for (const l of listeners) l.write('data: reload\n\n');
    } catch (e) {
      console.error(`serve: the rebuild failed (still serving the last good build): ${e.message}`);
    }
  }
}

await build();
http.createServer(serve).listen(port, '127.0.0.1', () => {
  console.log(`\n  Lockstep is at http://127.0.0.1:${port}/  (${release ? 'release' : 'debug'} build; Ctrl-C stops)\n`);
});
watch();
