// First drawing on a phone network (issue 22), part of `npm run bench`: Debian's Chromium with a
// cold cache per load, every response gzipped as a static host serves it, Chromium's network
// emulation (loopback; 4G 9 Mbit/s 85 ms RTT; 3G 1.6 Mbit/s 300 ms RTT); pages at 1440×900, the
// embed link at 800×500 (an embed's size: its poster is stored for it). For each page it prints
// the median of BENCH_RUNS loads (7) of: navigation → the main drawing present, and for Lockstep
// → the first interactive step: Step pressed as soon as the drawing is there (on a poster, its
// first Step shows the stored frame one step on: scripts/posters.mjs), its frame shown; and the
// first step on the live page (Step pressed once the live page is there). Ratios are to
// RaftScope's first drawing.
// A poster (scripts/posters.mjs) counts as the drawing: it is the live page's first paint.
// RaftScope is measured side by side when RAFTSCOPE=<path of a RaftScope checkout> is given
// (../shared/tools/raftscope-setup.sh assembles one), else Lockstep alone.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { DIST } from './harness.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const NETS = [
  ['loopback', null],
  ['4G', { latency: 85, down: 9e6 / 8, up: 9e6 / 8 }],
  ['3G', { latency: 300, down: 1.6e6 / 8, up: 0.75e6 / 8 }],
];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

/** Serves `dir` with every response gzipped (-9) and no caching; resolves to its base URL. */
function gzipServe(dir) {
  const cache = new Map();
  const server = http.createServer((req, res) => {
    let f = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!f.startsWith(dir) || !fs.existsSync(f)) { res.writeHead(404); res.end(); return; }
    if (fs.statSync(f).isDirectory()) f = path.join(f, 'index.html');
    if (!cache.has(f)) cache.set(f, zlib.gzipSync(fs.readFileSync(f), { level: 9 }));
    res.writeHead(200, { 'content-type': TYPES[path.extname(f)] ?? 'application/octet-stream',
      'content-encoding': 'gzip', 'access-control-allow-origin': '*', 'cache-control': 'no-store' });
    res.end(cache.get(f));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/** One cold load: ms from navigation start to the drawing, and to the first step (or null). */
async function load(browser, url, net, how, live) {
  const { drawn, step } = how;
  const context = await browser.newContext({ viewport: how.viewport ?? { width: 1440, height: 900 } });
  const page = await context.newPage();
  if (net) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: net.latency,
      downloadThroughput: net.down, uploadThroughput: net.up });
  }
  await page.goto(url, { waitUntil: 'commit', timeout: 120000 });
  const draw = await (await page.waitForFunction(drawn, null, { polling: 'raf', timeout: 120000 })).jsonValue();
  let stepped = null;
  if (step) {
    // Step is pressed as a reader would: on the poster, as soon as the drawing is there (its first
    // Step shows the stored frame one step on), or with `live`, once the live page is there.
    // Waiting for the button here keeps playwright's retry back-off out of the measurement.
    const button = live ? '#ls-step' : '.ls-boot--poster [data-poster-id="ls-step"], #ls-step';
    await page.waitForFunction((b) => document.querySelector(b), button, { polling: 'raf', timeout: 120000 });
    await page.locator(button).first().click({ timeout: 120000 });
    stepped = await (await page.waitForFunction(step, null, { polling: 'raf', timeout: 120000 })).jsonValue();
  }
  await context.close();
  return [draw, stepped];
}

/** The position the reader sees: the poster's while one is shown, else the live page's. */
const shown = `(document.querySelector('.ls-boot--poster [data-poster-id="ls-position"]')
  ?? document.getElementById('ls-position'))?.textContent ?? ''`;
const lockstep = {
  // The live stage, or the poster of it index.html's loader shows until the live one draws.
  drawn: () => document.querySelector('#ls-stage text, .ls-boot--poster .ls-stage text') && performance.now(),
  step: `/^step \\d+ /.test(${shown}) && !/^step 0 /.test(${shown}) && performance.now()`,
};
const linked = {
  drawn: lockstep.drawn,
  // A link opens at its frame: the first step is the one after it.
  step: `/^step \\d+ /.test(${shown}) && !/^step 40 /.test(${shown}) && performance.now()`,
};
const raftscope = { drawn: () => document.querySelectorAll('#servers .server').length >= 5 && performance.now() };

const lock = await gzipServe(DIST);
const rs = process.env.RAFTSCOPE ? await gzipServe(path.resolve(process.env.RAFTSCOPE)) : null;
const pages = [
  ...(rs ? [['RaftScope', rs.url, raftscope]] : []),
  ['Lockstep lean page', lock.url, lockstep],
  ['embed link (holder-crash #40, 800×500)', `${lock.url}?preset=holder-crash&at=40&embed=1`, { ...linked, viewport: { width: 800, height: 500 } }],
  ['full page (full.html)', `${lock.url}full.html`, lockstep],
];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'] });
console.log(`first drawing / first interactive step (pressed on what the reader sees as soon as it is drawn) / `
  + `first step on the live page (pressed once it is there), ms, median of ${RUNS} cold loads${rs ? '' : ' (RAFTSCOPE=<dir> adds RaftScope)'}`);
for (const [net, cond] of NETS) {
  const base = {};
  for (const [name, url, how] of pages) {
    const runs = [];
    const lives = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await load(browser, url, cond, how, false));
      if (how.step) lives.push((await load(browser, url, cond, how, true))[1]);
    }
    const draw = median(runs.map((r) => r[0]));
    if (name === 'RaftScope') base.draw = draw;
    const times = [['drawing', draw]];
    if (how.step) times.push(['step', median(runs.map((r) => r[1]))], ['live step', median(lives)]);
    const said = times.map(([what, ms]) => `${what} ${Math.round(ms)}${base.draw ? ` (${(ms / base.draw).toFixed(2)}×)` : ''}`);
    console.log(`${net.padEnd(8)} ${name.padEnd(42)} ${said.join(', ')}`);
  }
}
await browser.close();
lock.close();
rs?.close();
