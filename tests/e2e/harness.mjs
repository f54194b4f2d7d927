// Shared helpers for the browser tests: a static file server for dist/ on 127.0.0.1 (also under
// a sub-path), Debian's Chromium through playwright-core, and failure screenshots.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const DIST = path.join(ROOT, 'dist');
export const ARTIFACTS = path.join(ROOT, 'tests/e2e/artifacts');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png' };

/**
 * Serves dist/ at `/` and at `/nested/sub/path/`; resolves to { url, subUrl, close }. With
 * `cors: false` it sends no Access-Control-Allow-Origin (a host that breaks sandboxed embeds).
 */
export function serveDist({ cors = true, dir = DIST } = {}) {
  const server = http.createServer((req, res) => {
    let p;
    try {
      p = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/nested\/sub\/path\//, '/');
    } catch {
      res.writeHead(400); res.end('bad request'); return; // a malformed escape or URL
    }
    if (p.endsWith('/')) p += 'index.html';
    const file = path.join(dir, path.normalize(p));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end('not found'); return;
    }
    // CORS like common static hosts (GitHub Pages): a sandboxed iframe has an opaque origin.
    const headers = { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
    if (cors) headers['access-control-allow-origin'] = '*';
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const base = `http://127.0.0.1:${server.address().port}`;
    resolve({ url: `${base}/`, subUrl: `${base}/nested/sub/path/`, close: () => server.close() });
  }));
}

/** Launches Debian's Chromium headless with a fresh profile and the flags this machine needs. */
export async function launch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-e2e-'));
  return chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Opens a page that records console errors, page errors and requests leaving `origin`. */
export async function watchedPage(context, origin) {
  const page = await context.newPage();
  const problems = { consoleErrors: [], pageErrors: [], foreignRequests: [] };
  page.on('console', (m) => { if (m.type() === 'error') problems.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) problems.foreignRequests.push(u);
  });
  return { page, problems };
}

/** Saves a screenshot named after the test and prints where it went. */
export async function screenshotOnFailure(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name.replace(/[^a-z0-9]+/gi, '_')}.png`);
  try { await page.screenshot({ path: file, fullPage: true }); console.error(`screenshot of the failure: ${file}`); } catch { /* page gone */ }
}

/** The position readout: { step, len }. */
export async function position(page) {
  const text = await page.locator('#ls-position').innerText();
  const m = text.match(/(\d+) \/ (\d+)/);
  return { step: Number(m[1]), len: Number(m[2]), text };
}

/** Opens a drawer tab (Lesson, Settings, Log, Sequence, Monitors) unless it is open. */
export async function openTab(page, id) {
  const tab = page.locator(`#ls-tab-${id}`);
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
}

/** Waits until the stage has stopped moving (its transition is over). */
export async function settle(page) {
  await page.evaluate(() => new Promise((done) => {
    const grab = () => document.querySelector('#ls-stage')?.innerHTML;
    let last = grab();
    const check = () => { const now = grab(); if (now === last) done(); else { last = now; setTimeout(check, 80); } };
    setTimeout(check, 80);
  }));
}

/** Clicks a client's card on the stage and then one of its actions in the popover. */
export async function clientAct(page, client, act) {
  await clickCard(page, client);
  await page.locator(`#ls-pop [data-act="${act}"]`).click();
}

/** Clicks a client's card once the stage has settled (anything on the card opens it: its texts
 * lie over the card's rectangle). A stage redrawn between finding the card and clicking it
 * (the history computed ahead after a command) is settled and tried again. */
export async function clickCard(page, client) {
  for (let attempt = 1; ; attempt += 1) {
    await settle(page);
    try {
      await page.locator(`#ls-stage .ls-card[data-client="${client}"]`).click({ force: true, timeout: 5000 });
      return;
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}

/** Clicks server `s`'s box near its bottom edge (its rows lie above). */
export async function openServer(page, s) {
  await settle(page);
  const box = page.locator(`#ls-stage rect.ls-server[data-server="${s}"]`);
  const b = await box.boundingBox();
  await page.mouse.click(b.x + b.width / 2, b.y + b.height - 6);
  await page.locator('#ls-pop').waitFor();
}

/**
 * Runs `body(page)` on a fresh 1400×1000 page at `url` (once `#ls-stage` is there), then asserts no
 * page errors, no requests to other origins and (unless `allowConsole`) no console errors; a
 * failure leaves a screenshot named `name`.
 */
export async function withPage(context, origin, name, url, body, { allowConsole = false } = {}) {
  const { page, problems } = await watchedPage(context, origin);
  try {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.goto(url);
    await page.locator('#ls-stage').waitFor({ timeout: 15000 });
    await body(page);
    if (!allowConsole) assert.deepEqual(problems.consoleErrors, [], 'console errors');
    assert.deepEqual(problems.pageErrors, [], 'page errors');
    assert.deepEqual(problems.foreignRequests, [], 'requests to other origins');
  } catch (e) {
    await screenshotOnFailure(page, name);
    throw e;
  } finally {
    await page.close();
  }
}
