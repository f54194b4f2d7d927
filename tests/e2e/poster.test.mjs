// Posters (issue 22): before the WebAssembly arrives, the bare address and an embed link of a key
// frame show the first paint scripts/posters.mjs stored; it matches the live page's first paint
// pixel for pixel (a small tolerance), and the swap leaves no frame without a drawing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDist, DIST, screenshotOnFailure } from './harness.mjs';

let srv; let browser;
before(async () => {
  srv = await serveDist();
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'] });
});
after(async () => { await browser?.close(); srv?.close(); });

/** The posters a page lists (scripts/posters.mjs writes the list into its loader). */
function listed(page) {
  const m = fs.readFileSync(path.join(DIST, page), 'utf8').match(/var P = (\{.*?\});/);
  return m ? JSON.parse(m[1]).k ?? [] : [];
}

/**
 * Opens `query` with the WebAssembly held back: returns the page once the poster shows, and
 * `release()`, which lets the module load and resolves once the poster has been taken away.
 * Every animation frame records whether a poster and a drawn live stage were on the page.
 */
async function held(query, { width, height, locale }) {
  const context = await browser.newContext({ viewport: { width, height }, locale, reducedMotion: 'reduce' });
  const page = await context.newPage();
  let open;
  const gate = new Promise((ok) => { open = ok; });
  await page.route(/_bg\.wasm$/, async (route) => { await gate; await route.continue(); });
  await page.addInitScript(() => {
    window.__frames = [];
    const look = () => {
      const poster = !!document.querySelector('.ls-boot--poster .ls-stage text');
      const live = !!document.querySelector('#ls-stage text');
      window.__frames.push([poster, live]);
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await page.goto(`${srv.url}${query}`);
  await page.locator('.ls-boot--poster .ls-stage text').first().waitFor({ timeout: 15000 });
  const release = async () => {
    open();
    await page.waitForFunction(() => !document.getElementById('ls-boot') && document.querySelector('#ls-stage text'),
      null, { polling: 'raf', timeout: 30000 });
  };
  return { page, context, release };
}

/** Share of pixels that differ by more than a faint anti-aliasing step between two PNGs. */
async function difference(page, a, b) {
  return page.evaluate(async ([x, y]) => {
    const load = async (b64) => createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const [p, q] = [await load(x), await load(y)];
    if (p.width !== q.width || p.height !== q.height) return 1;
    const px = (img) => {
      const c = new OffscreenCanvas(img.width, img.height);
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      return g.getImageData(0, 0, img.width, img.height).data;
    };
    const [d, e] = [px(p), px(q)];
    let off = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.max(Math.abs(d[i] - e[i]), Math.abs(d[i + 1] - e[i + 1]), Math.abs(d[i + 2] - e[i + 2])) > 40) off += 1;
    }
    return off / (d.length / 4);
  }, [a.toString('base64'), b.toString('base64')]);
}

const CASES = [
  ['the bare address at 1440×900 (English)', '', { width: 1440, height: 900, locale: 'en-US' }],
  ['the bare address at 1440×900 (Chinese browser)', '', { width: 1440, height: 900, locale: 'zh-CN' }],
  ['the bare address with lang=zh at 1920×1080', '?lang=zh', { width: 1920, height: 1080, locale: 'en-US' }],
  ['the bare address at 1366×768 (English)', '', { width: 1366, height: 768, locale: 'en-US' }],
  ['an embed link at a key frame at 800×500 (lang=zh)', '?preset=holder-crash&at=40&embed=1&lang=zh', { width: 800, height: 500, locale: 'en-US' }],
  ['an embed link at a key frame at 800×500 (English)', '?preset=herd&at=36&embed=1', { width: 800, height: 500, locale: 'en-US' }],
  ['an embed link at a key frame at 640×400', '?preset=gc-pause&at=31&embed=1&lang=en', { width: 640, height: 400, locale: 'en-US' }],
  ['the full page: an ensemble embed at 800×500', 'full.html?preset=zk-leader-crash&at=127&embed=1&lang=zh', { width: 800, height: 500, locale: 'en-US' }],
  ['the full page: a Redis failover embed at 640×400', 'full.html?preset=redis-failover&at=21&embed=1', { width: 640, height: 400, locale: 'zh-CN' }],
  ['the full page: its bare address at 1440×900', 'full.html', { width: 1440, height: 900, locale: 'en-US' }],
  ['a course chapter as the Embed button links it, 800×500', 'full.html?preset=herd&at=0&lang=zh&embed=1&learn=herd', { width: 800, height: 500, locale: 'en-US' }],
  ['the consensus chapter embedded at 640×400', 'full.html?preset=zk-leader-crash&at=0&lang=en&embed=1&learn=consensus', { width: 640, height: 400, locale: 'en-US' }],
];

for (const [name, query, size] of CASES) {
  test(`${name}: the poster shows before the WebAssembly and matches the live first paint`, async () => {
    const [file, search] = query.startsWith('full.html') ? ['full.html', query.slice(9)] : ['index.html', query];
    const q = new URLSearchParams(search);
    const key = q.get('preset') !== null ? `e:${q.get('preset')}.${q.get('at')}${q.get('learn') === null ? '' : `~${q.get('learn')}`}` : 'p:home';
    assert.ok(listed(file).includes(key), `dist/${file} lists no poster ${key}: scripts/posters.mjs did not run?`);
    const { page, context, release } = await held(query, size);
    try {
      const poster = await page.screenshot();
      const box = await page.locator('.ls-boot--poster svg.ls-stage').boundingBox();
      await release();
      const live = await page.screenshot();
      assert.deepEqual(await page.locator('#ls-stage').boundingBox(), box, 'the live stage is where the poster drew it');
      const off = await difference(page, poster, live);
      // POSTER_SHOTS=1 keeps both screenshots in /tmp, to look at.
      if (process.env.POSTER_SHOTS) { const f = `/tmp/poster-${name.replace(/\W+/g, '_')}`; fs.writeFileSync(`${f}-a.png`, poster); fs.writeFileSync(`${f}-b.png`, live); console.log(name, off); }
      assert.ok(off < 0.003, `${(off * 100).toFixed(2)} % of the pixels differ between the poster and the live page`);
      // From the poster's first frame on, every frame showed a drawing (poster or live).
      const frames = await page.evaluate(() => window.__frames);
      const first = frames.findIndex(([p]) => p);
      assert.ok(first >= 0);
      const blank = frames.slice(first).filter(([p, l]) => !p && !l).length;
      assert.equal(blank, 0, `${blank} frames without a drawing during the swap`);
    } catch (e) {
      await screenshotOnFailure(page, `poster ${name}`);
      throw e;
    } finally {
      await context.close();
    }
  });
}

test('a window of a size no poster was taken at gets the nearest one, scaled, and no blank frame', async () => {
  const { page, context, release } = await held('', { width: 1600, height: 1000, locale: 'en-US' });
  try {
    assert.equal(await page.locator('.ls-boot--poster svg.ls-stage').getAttribute('width'), '100%');
    const box = await page.locator('.ls-boot--poster svg.ls-stage').boundingBox();
    assert.ok(box.width > 1000 && box.height > 600, `the scaled stage fills its box: ${JSON.stringify(box)}`);
    await release();
    const frames = await page.evaluate(() => window.__frames);
    const first = frames.findIndex(([p]) => p);
    assert.equal(frames.slice(first).filter(([p, l]) => !p && !l).length, 0);
  } finally {
    await context.close();
  }
});

/** Where Step leads from `query` on the live page, and the address it then writes. */
async function liveStep(query, { width, height, locale }) {
  const context = await browser.newContext({ viewport: { width, height }, locale, reducedMotion: 'reduce' });
  const page = await context.newPage();
  try {
    await page.goto(`${srv.url}${query}`);
    await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
    const before = await page.locator('#ls-position').textContent();
    await page.locator('#ls-step').click();
    await page.waitForFunction((b) => document.getElementById('ls-position').textContent !== b, before);
    await page.waitForTimeout(400); // the app writes the address a moment after a step
    return { position: await page.locator('#ls-position').textContent(), search: await page.evaluate(() => location.search) };
  } finally {
    await context.close();
  }
}

const SHOWN = '.ls-boot--poster [data-poster-id="ls-position"]';
for (const [name, query, size] of [
  ['an embed link at a key frame', '?preset=holder-crash&at=40&embed=1&lang=en', { width: 800, height: 500, locale: 'en-US' }],
  ['the bare address in a Chinese browser', '', { width: 1440, height: 900, locale: 'zh-CN' }],
]) {
  test(`${name}: Step on the poster shows the frame one step on at once, and the page goes live there without a jump`, async () => {
    const want = await liveStep(query, size);
    const { page, context, release } = await held(query, size);
    try {
      await page.locator('.ls-boot--poster [data-poster-id="ls-step"]').click();
      await page.waitForFunction(([sel, p]) => document.querySelector(sel)?.textContent === p, [SHOWN, want.position], { timeout: 10000 });
      const params = (search) => [...new URLSearchParams(search)].sort();
      assert.deepEqual(params(await page.evaluate(() => location.search)), params(want.search), 'the address names the frame shown');
      assert.equal(await page.locator('.ls-poster-pressed').count(), 0, 'nothing is left for the live page to press');
      const poster = await page.screenshot();
      await release();
      assert.equal(await page.locator('#ls-position').textContent(), want.position, 'the live page starts where the poster is');
      const off = await difference(page, poster, await page.screenshot());
      assert.ok(off < 0.003, `${(off * 100).toFixed(2)} % of the pixels differ between the step poster and the live page`);
      const frames = await page.evaluate(() => window.__frames);
      assert.equal(frames.slice(frames.findIndex(([p]) => p)).filter(([p, l]) => !p && !l).length, 0, 'no frame without a drawing');
      await page.waitForTimeout(500);
      assert.equal(await page.locator('#ls-position').textContent(), want.position, 'the press was done once, not again');
      const open = page.locator('.ls-embed__open');
      if (await open.count()) assert.match(await open.getAttribute('href'), new RegExp(`[?&]${want.search.match(/at=\d+/)[0]}&`), 'the open link leads to the frame shown');
    } catch (e) {
      await screenshotOnFailure(page, `step poster ${name}`);
      throw e;
    } finally {
      await context.close();
    }
  });
}

test('→ on a poster steps as the live page\'s key does: the first shows the step poster, a second is kept and done once the page is live', async () => {
  const query = '?preset=holder-crash&at=40&embed=1&lang=en';
  const size = { width: 800, height: 500, locale: 'en-US' };
  const want = await liveStep(query, size);
  const { page, context, release } = await held(query, size);
  try {
    const step = page.locator('.ls-boot--poster [data-poster-id="ls-step"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(([sel, p]) => document.querySelector(sel)?.textContent === p, [SHOWN, want.position], { timeout: 10000 });
    await page.keyboard.press('ArrowRight');
    assert.ok(await step.evaluate((b) => b.classList.contains('ls-poster-pressed')), 'the pressed button shows it');
    await release();
    const at = Number(want.position.match(/^step (\d+)/)[1]);
    await page.waitForFunction((n) => /^step (\d+)/.test(document.querySelector('#ls-position')?.textContent ?? '')
      && Number(RegExp.$1) > n, at, { timeout: 15000 });
    assert.equal(await page.locator('[tabindex="-1"][data-poster-id]').count(), 0, 'the poster is gone');
  } catch (e) {
    await screenshotOnFailure(page, 'poster stepped by keys');
    throw e;
  } finally {
    await context.close();
  }
});

test("a key frame where Step does not move (a run's end) has no step poster: none is asked for, and a press waits for the live page", async () => {
  assert.ok(listed('index.html').includes('e:gc-pause.77'));
  const { page, context, release } = await held('?preset=gc-pause&at=77&embed=1&lang=en', { width: 800, height: 500, locale: 'en-US' });
  try {
    const asked = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(asked.some((u) => u.includes('/posters/e-gc-pause.77-en-800x500.html')), 'the poster was asked for');
    assert.deepEqual(asked.filter((u) => u.includes('.next.html')), [], 'no step poster was asked for');
    await page.locator('.ls-boot--poster [data-poster-id="ls-back"]').click();
    assert.equal(await page.locator('.ls-poster-pressed').count(), 1, 'the press is kept');
    await release();
    await page.waitForFunction(() => /^step (\d+)/.test(document.querySelector('#ls-position')?.textContent ?? '')
      && Number(RegExp.$1) < 77, null, { timeout: 15000 });
  } finally {
    await context.close();
  }
});

test("a poster's links lead where the live page's do, on the host that serves it", async () => {
  const { page, context, release } = await held('?preset=holder-crash&at=40&embed=1&lang=en', { width: 800, height: 500, locale: 'en-US' });
  try {
    const hrefs = (sel) => page.$$eval(sel, (as) => as.map((a) => a.href));
    const poster = await hrefs('.ls-boot--poster a[href]');
    assert.ok(poster.length > 0, 'the embed poster has its open link');
    for (const h of poster) assert.ok(h.startsWith(srv.url), `${h} is on ${srv.url}`);
    await release();
    assert.deepEqual(await hrefs('.ls-app a[href]'), poster);
  } finally {
    await context.close();
  }
});

test('a link without a stored poster, or with other parameters, loads as before and asks for none', async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 500 } });
  const page = await context.newPage();
  const asked = [];
  const errors = [];
  page.on('request', (r) => { if (r.url().includes('/posters/')) asked.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  for (const q of ['?preset=herd&at=35&embed=1', '?preset=herd&at=36&embed=1&theme=dark', '?preset=%3Cx%3E&at=1e999&embed=1',
    '?lang=fr']) {
    await page.goto(`${srv.url}${q}`);
    await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
    assert.equal(await page.locator('#ls-boot').count(), 0, q);
  }
  assert.deepEqual(asked, []);
  assert.deepEqual(errors, []);
  await context.close();
});
