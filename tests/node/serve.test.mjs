// The dev server (scripts/serve.mjs) against hostile requests, without a build or a browser:
// malformed requests to a real server on 127.0.0.1 get a clean status and it keeps serving;
// a seeded mutation fuzzer finds no request that throws, answers an unexpected status or
// reaches a file outside the served folder; the source watcher reports changes.
//   node --test tests/node/serve.test.mjs   (scripts/test.sh runs every file in tests/node/)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createServer, resolveRequest, watchSources, MAX_URL } from '../../scripts/serve.mjs';

const SECRET = 'SECRET-OUTSIDE-THE-ROOT';
const ALLOWED = new Set([200, 304, 400, 403, 404, 405, 414]);
let base; let dir; let server; let port;

before(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-serve-')));
  dir = path.join(base, 'serve');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), 'INDEX');
  fs.writeFileSync(path.join(dir, 'app.js'), 'export {};');
  fs.writeFileSync(path.join(dir, 'sub', 'page.html'), 'PAGE');
  fs.writeFileSync(path.join(dir, '中'), 'ZHONG');
  // Outside: a file beside the folder, a sibling whose name starts with the folder's, and
  // links inside the folder that lead out.
  fs.writeFileSync(path.join(base, 'secret.txt'), SECRET);
  fs.mkdirSync(path.join(base, 'serve-dev'));
  fs.writeFileSync(path.join(base, 'serve-dev', 'index.html'), SECRET);
  fs.symlinkSync(path.join(base, 'secret.txt'), path.join(dir, 'link.txt'));
  fs.symlinkSync(base, path.join(dir, 'linkdir'));
  server = createServer(dir);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  port = server.address().port;
});

after(() => {
  server?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

/** Sends `METHOD target` as raw bytes (no client-side checks); resolves to { status, body }. */
function raw(method, target) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const s = net.connect(port, '127.0.0.1', () => {
      s.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, 'latin1');
    });
    s.setTimeout(5000, () => s.destroy(new Error(`no answer to ${method} ${JSON.stringify(target.slice(0, 80))}`)));
    s.on('data', (c) => chunks.push(c));
    s.on('error', reject);
    s.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const m = text.match(/^HTTP\/1\.1 (\d{3})/);
      if (!m) reject(new Error(`no status line for ${JSON.stringify(target.slice(0, 80))}: ${JSON.stringify(text.slice(0, 80))}`));
      else resolve({ status: Number(m[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

async function stillServing() {
  const r = await raw('GET', '/');
  assert.equal(r.status, 200);
  assert.equal(r.body, 'INDEX');
}

test('malformed and hostile requests get a clean status and the server keeps serving', async () => {
  const cases = [
    ['GET', '/%', 400],
    ['GET', '/%zz', 400],
    ['GET', '/%E0%A4%A', 400],
    ['GET', '/sub/%', 400],
    ['GET', '//', 404],
    ['GET', '//index.html', 404],
    ['GET', '/sub//page.html', 404],
    ['GET', '/..%2f..%2fetc/passwd', 403],
    ['GET', '/%2e%2e/', 403],
    ['GET', '/%2e%2e/secret.txt', 403],
    ['GET', '/%2E%2E%2Fserve-dev/index.html', 403],
    ['GET', '/../secret.txt', 403],
    ['GET', '/sub/../../secret.txt', 403],
    ['GET', '/./index.html', 403],
    ['GET', '/..%5c..%5csecret.txt', 400],
    ['GET', '/index.html%00', 400],
    ['GET', '/link.txt', 403],
    ['GET', '/linkdir/secret.txt', 403],
    ['GET', '/linkdir/serve-dev/index.html', 403],
    ['GET', '/linkdir/serve/index.html', 200], // out and back in: inside the folder
    ['GET', '/nope.html', 404],
    ['GET', '/sub', 404],
    ['GET', `/${'a'.repeat(300)}`, 404],
    ['GET', `/${'a/'.repeat(5000)}x`, 404],
    ['GET', `/${'a'.repeat(MAX_URL)}`, 414],
    ['GET', `/?s=${'b'.repeat(20000)}`, 200],
    ['GET', 'http://127.0.0.1/index.html', 400],
    ['GET', '*', 400],
    ['POST', '/', 405],
    ['PUT', '/index.html', 405],
    ['DELETE', '/index.html', 405],
    ['OPTIONS', '*', 405],
    ['PROPFIND', '/', 405],
    ['BREW', '/', 400], // not a method node's parser knows: node answers 400 itself
    ['GET', '/a b', 400], // node's parser too
    ['GET', '/\x1b[31m', 400],
    ['GET', '/%E4%B8%AD', 200],
    ['GET', '/?q=%', 200],
    ['GET', '/full.html', 200],
    ['HEAD', '/', 200],
  ];
  for (const [method, target, status] of cases) {
    const r = await raw(method, target);
    assert.equal(r.status, status, `${method} ${target.slice(0, 60)}: ${r.body.slice(0, 80)}`);
    assert.ok(!r.body.includes(SECRET), `${method} ${target.slice(0, 60)} served a file outside the folder`);
    await stillServing();
  }
  // Past the server's 64 KiB of headers node answers 431 itself, and the server lives on.
  assert.equal((await raw('GET', `/${'a'.repeat(70000)}`)).status, 431);
  await stillServing();
});

/** A small seeded PRNG (mulberry32): the same URLs on every run. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = ['/', '/index.html', '/%E4%B8%AD', '//', '/a/../b', '/sub/page.html', '/app.js?x=1#y',
  '/link.txt', '/linkdir/secret.txt', '/full.html', '/%2e%2e/secret.txt'];
const TOKENS = ['%', '%2', '%2e', '%2E', '%2f', '%2F', '%5c', '%00', '%zz', '%E4', '%B8%AD', '%C0%AE', '%25',
  '%3f', '%23', '..', '.', '/', '//', '\\', '?', '#', 'a', '中', '\0', '\x1b', ' ', 'index.html', 'secret.txt',
  'serve-dev/', 'linkdir/', '../', '%2e%2e%2f', '..%2f', '%ff', '%F0%9F%98'];
const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'OPTIONS', 'get', 'PUT'];

function mutate(rand, s) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const at = () => Math.floor(rand() * (s.length + 1));
  for (let n = 1 + Math.floor(rand() * 4); n > 0; n -= 1) {
    const i = at();
    switch (Math.floor(rand() * 5)) {
      case 0: s = s.slice(0, i) + pick(TOKENS) + s.slice(i); break;
      case 1: s = s.slice(0, i) + s.slice(i + 1 + Math.floor(rand() * 3)); break;
      case 2: { const j = at(); s = s.slice(0, Math.max(i, j)) + s.slice(Math.min(i, j)); break; }
      case 3: s = s.slice(0, i) + String.fromCharCode(Math.floor(rand() * 256)) + s.slice(i + 1); break;
      default: s = s.slice(0, i);
    }
  }
  return s;
}

test('fuzz: no request throws, answers an unexpected status or leaves the folder', async () => {
  const rand = prng(0x10c5);
  const realDir = fs.realpathSync(dir);
  const statuses = new Map();
  const viaServer = [];
  for (let k = 0; k < 4000; k += 1) {
    const method = rand() < 0.85 ? 'GET' : METHODS[Math.floor(rand() * METHODS.length)];
    const url = mutate(rand, SEEDS[k % SEEDS.length]);
    let r;
    assert.doesNotThrow(() => { r = resolveRequest(dir, method, url); }, `${method} ${JSON.stringify(url)}`);
    assert.ok(ALLOWED.has(r.status), `${method} ${JSON.stringify(url)} → ${r.status}`);
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status === 200) {
      const rel = path.relative(realDir, fs.realpathSync(r.file));
      assert.ok(!rel.startsWith('..') && !path.isAbsolute(rel), `${JSON.stringify(url)} served ${r.file}`);
    }
    if (k % 8 === 0 && /^[A-Z]+$/.test(method) && !/[\r\n]/.test(url)) viaServer.push([method, url]);
  }
  // The fuzzer reaches every kind of answer, not only one.
  for (const s of [200, 400, 403, 404, 405]) assert.ok(statuses.get(s) > 0, `no ${s} in ${[...statuses]}`);
  // A share of them through the real server (raw bytes: node's own 400s count too).
  for (const [method, url] of viaServer) {
    const r = await raw(method, url);
    assert.ok(ALLOWED.has(r.status), `${method} ${JSON.stringify(url)} → ${r.status}`);
    assert.ok(!r.body.includes(SECRET), `${method} ${JSON.stringify(url)} served a file outside the folder`);
  }
  await stillServing();
});

test('the source watcher reports a change under src/ and to studio.html, not to other files', async () => {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-watch-'));
  fs.mkdirSync(path.join(tree, 'src', 'view'), { recursive: true });
  fs.mkdirSync(path.join(tree, 'target'));
  fs.writeFileSync(path.join(tree, 'src', 'view', 'a.rs'), '//! a');
  fs.writeFileSync(path.join(tree, 'studio.html'), '<html>');
  let calls = 0;
  const stop = watchSources(tree, () => { calls += 1; }, { quiet: 50 });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  /** Waits (up to 5 s: a loaded machine) until the watcher has called back `n` times in all. */
  const calledBack = async (n, what) => {
    for (let t = 0; calls < n && t < 100; t += 1) await sleep(50);
    await sleep(150); // and no more than that
    assert.equal(calls, n, what);
  };
  try {
    await sleep(200);
    fs.appendFileSync(path.join(tree, 'src', 'view', 'a.rs'), '\n');
    await calledBack(1, 'a change to src/view/a.rs');
    fs.writeFileSync(path.join(tree, 'notes.txt'), 'x');
    fs.writeFileSync(path.join(tree, 'target', 'out.wasm'), 'x');
    await sleep(400);
    assert.equal(calls, 1, 'files a build does not read');
    fs.writeFileSync(path.join(tree, 'studio.html.tmp'), '<html>2');
    fs.renameSync(path.join(tree, 'studio.html.tmp'), path.join(tree, 'studio.html')); // an editor's save
    await calledBack(2, 'studio.html replaced');
    fs.mkdirSync(path.join(tree, 'src', 'new'));
    await calledBack(3, 'a new folder');
    fs.writeFileSync(path.join(tree, 'src', 'new', 'b.rs'), '//! b');
    await calledBack(4, 'a file in the new folder');
  } finally {
    stop();
    fs.rmSync(tree, { recursive: true, force: true });
  }
});
