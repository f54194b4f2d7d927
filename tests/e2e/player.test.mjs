// An embed as authors drop it into posts (issue 53): phone-sized frames keep their controls and
// say how tall they want to be; player parameters (start/end/loop/autoplay/theme); commands sent
// before the app runs; pausing off screen; <lockstep-player>; the way out of a sandbox.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, watchedPage, screenshotOnFailure, DIST } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

/** A host page in dist/ (removed after the test) and a page open on it that records messages. */
async function host(name, body, { width = 1000, height = 800 } = {}) {
  const file = path.join(DIST, `e2e-player-${name}.html`);
  fs.writeFileSync(file, `<!doctype html><html><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script>window.__ev = []; addEventListener('message', (e) => window.__ev.push(e.data));</script></head>
<body style="margin:0">${body}</body></html>`);
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  await page.setViewportSize({ width, height });
  await page.goto(`${srv.url}e2e-player-${name}.html`);
  return { page, problems, done: async () => { await page.close(); fs.unlinkSync(file); } };
}

const events = (page, type) => page.evaluate((t) => window.__ev.filter((e) => e && e.type === t), type);
async function waitEvent(page, type, pred = 'true', timeout = 20000) {
  const h = await page.waitForFunction(([t, p]) => {
    const ok = new Function('e', `return ${p}`);
    return window.__ev.find((e) => e && e.type === t && ok(e)) || null;
  }, [type, pred], { timeout });
  return h.jsonValue();
}

for (const [w, h] of [[360, 225], [320, 240]]) {
  test(`a ${w}×${h} embed keeps its controls visible, and the height it posts shows the whole figure`, async () => {
    const { page, done } = await host(`phone${w}`, `<iframe id="f" src="./?preset=holder-crash&embed=1&at=25" width="${w}" height="${h}" style="border:0;display:block" sandbox="allow-scripts"></iframe>`, { width: 420, height: 900 });
    try {
      const frame = page.frameLocator('#f');
      await frame.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
      for (const id of ['#ls-play', '#ls-step', '#ls-back', '#ls-scrub']) {
        const box = await frame.locator(id).boundingBox();
        assert.ok(box && box.width > 0 && box.y >= 0 && box.y + box.height <= h + 0.5, `${id} inside the ${w}×${h} frame: ${JSON.stringify(box)}`);
      }
      const cap = await frame.locator('#ls-caption').boundingBox();
      assert.ok(cap.y + cap.height <= h, `the caption is not cut off: ${JSON.stringify(cap)}`);
      const open = await frame.locator('.ls-embed__open').boundingBox();
      assert.ok(open.y + open.height <= cap.y || open.x >= cap.x + cap.width, 'the way out does not cover the caption');
      const resize = await waitEvent(page, 'lockstep:resize');
      assert.ok(resize.height > 150 && resize.height < 900, JSON.stringify(resize));
      // Applied, the height shows everything without scrolling, the stage larger than before.
      const stageBefore = (await frame.locator('.ls-stage-host').boundingBox()).height;
      await page.evaluate((hh) => { document.getElementById('f').height = String(hh); }, resize.height);
      await page.waitForFunction((hh) => document.getElementById('f').getBoundingClientRect().height === hh, resize.height);
      await page.waitForTimeout(100);
      const fit = await frame.locator('html').evaluate(() => document.documentElement.scrollHeight <= innerHeight + 1);
      assert.ok(fit, 'no scrolling at the posted height');
      const stageAfter = (await frame.locator('.ls-stage-host').boundingBox()).height;
      assert.ok(stageAfter >= stageBefore, `the stage got its room (${stageBefore} → ${stageAfter})`);
    } catch (e) { await screenshotOnFailure(page, `player-phone-${w}`); throw e; } finally { await done(); }
  });
}

test('start, end and loop: autoplay plays the range and goes back to its start', async () => {
  const { page, done } = await host('range', '<iframe id="f" src="./?preset=holder-crash&embed=1&start=20&end=28&loop=1&autoplay=1&speed=8" width="800" height="500" sandbox="allow-scripts"></iframe>');
  try {
    const first = await waitEvent(page, 'lockstep:frame');
    assert.equal(first.at, 20, 'it opens at start');
    await waitEvent(page, 'lockstep:frame', 'e.at === 28', 40000);
    // After the end it loops: a later frame back at the start.
    await page.waitForFunction(() => {
      const fs = window.__ev.filter((e) => e && e.type === 'lockstep:frame');
      const end = fs.findIndex((e) => e.at === 28);
      return end >= 0 && fs.slice(end + 1).some((e) => e.at === 20);
    }, null, { timeout: 40000 });
    const ats = (await events(page, 'lockstep:frame')).map((e) => e.at);
    assert.ok(ats.every((a) => a >= 20 && a <= 28), `every frame inside the range: ${ats.join(',')}`);
  } finally { await done(); }
});

test('end without loop: playback stops at the end and says ended', async () => {
  const { page, done } = await host('ended', '<iframe id="f" src="./?preset=holder-crash&embed=1&start=20&end=24&autoplay=1" width="800" height="500" sandbox="allow-scripts"></iframe>');
  try {
    await waitEvent(page, 'lockstep:playing');
    const ended = await waitEvent(page, 'lockstep:ended', 'true', 40000);
    assert.equal(ended.at, 24);
    await waitEvent(page, 'lockstep:paused');
  } finally { await done(); }
});

test('theme=dark: every text on the page and on the stage reads at 4.5:1 or better', async () => {
  const { page, done } = await host('dark', '<iframe id="f" src="./?preset=holder-crash&embed=1&at=25&theme=dark" width="800" height="500" sandbox="allow-scripts"></iframe>');
  try {
    const frame = page.frameLocator('#f');
    await frame.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
    const worst = await frame.locator('html').evaluate(() => {
      const rgb = (c) => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
      const bgOf = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const c = getComputedStyle(e).backgroundColor;
          if (c && !/rgba\(.*,\s*0\)$/.test(c) && c !== 'transparent') return rgb(c);
        }
        return rgb(getComputedStyle(document.body).backgroundColor);
      };
      const out = [];
      for (const el of document.querySelectorAll('.ls-caption span, .ls-caption strong, .ls-position, .ls-embed__open, #ls-play')) {
        if (!el.textContent.trim() || el.getClientRects().length === 0) continue;
        out.push([ratio(rgb(getComputedStyle(el).color), bgOf(el)), el.textContent.trim().slice(0, 40)]);
      }
      // SVG text over the stage's own panels: the rect under it is what it reads on.
      const host = getComputedStyle(document.querySelector('.ls-stage-host')).backgroundColor;
      for (const t of document.querySelectorAll('#ls-stage text')) {
        if (!t.textContent.trim() || Number(getComputedStyle(t).opacity) < 1) continue;
        // A mark, not words (a crash's ×): graphics need 3:1, checked below.
        const mark = t.textContent.trim() === '×';
        const fill = getComputedStyle(t).fill;
        const r = t.getBoundingClientRect();
        const under = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2).find((e) => e.tagName === 'rect' && getComputedStyle(e).fillOpacity === '1' && getComputedStyle(e).fill !== 'none');
        const bg = under ? getComputedStyle(under).fill : host;
        const r2 = ratio(rgb(fill), rgb(bg));
        out.push([mark ? r2 * 1.5 : r2, t.textContent.trim().slice(0, 40)]);
      }
      out.sort((a, b) => a[0] - b[0]);
      return out.slice(0, 5);
    });
    assert.ok(worst[0][0] >= 4.5, `lowest contrasts: ${JSON.stringify(worst)}`);
    const bg = await frame.locator('.ls-stage-host').evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(bg, 'rgb(255, 255, 255)', 'the stage is dark too');
  } catch (e) { await screenshotOnFailure(page, 'player-dark'); throw e; } finally { await done(); }
});

test('a command sent on the iframe\'s load event is obeyed, and hello gets ready again', async () => {
  const { page, done } = await host('early', `<iframe id="f" src="./?preset=holder-crash&embed=1" width="800" height="500" sandbox="allow-scripts"
    onload="this.contentWindow.postMessage({type:'lockstep:seek', at: 40}, '*')"></iframe>`);
  try {
    await waitEvent(page, 'lockstep:frame', 'e.at === 40');
    const n = (await events(page, 'lockstep:ready')).length;
    await page.evaluate(() => document.getElementById('f').contentWindow.postMessage({ type: 'lockstep:hello' }, '*'));
    await page.waitForFunction((k) => window.__ev.filter((e) => e && e.type === 'lockstep:ready').length > k, n);
  } finally { await done(); }
});

test('playback pauses when the figure is scrolled off screen and resumes when it is back', async () => {
  const { page, done } = await host('offscreen', `<iframe id="f" src="./?preset=herd&embed=1" width="800" height="500" sandbox="allow-scripts"></iframe>
    <div style="height:3000px"></div>`, { width: 1000, height: 700 });
  try {
    await waitEvent(page, 'lockstep:ready');
    await page.evaluate(() => document.getElementById('f').contentWindow.postMessage({ type: 'lockstep:play' }, '*'));
    await waitEvent(page, 'lockstep:playing');
    const before = (await events(page, 'lockstep:paused')).length;
    await page.evaluate(() => scrollTo(0, 2500));
    await page.waitForFunction((k) => window.__ev.filter((e) => e && e.type === 'lockstep:paused').length > k, before, { timeout: 10000 });
    const playing = (await events(page, 'lockstep:playing')).length;
    await page.evaluate(() => scrollTo(0, 0));
    await page.waitForFunction((k) => window.__ev.filter((e) => e && e.type === 'lockstep:playing').length > k, playing, { timeout: 10000 });
  } finally { await done(); }
});

test('<lockstep-player> plays, seeks, fires ended and sizes itself', async () => {
  const { page, done } = await host('component', `<script type="module" src="./public/lockstep-player.js"></script>
    <div style="width:640px"><lockstep-player id="p" preset="holder-crash" start="26" end="32" speed="8"></lockstep-player></div>`);
  try {
    await page.waitForFunction(() => document.getElementById('p')?.ready === true, null, { timeout: 20000 });
    const got = await page.evaluate(() => new Promise((resolve) => {
      const p = document.getElementById('p');
      const seen = [];
      for (const n of ['play', 'step', 'ended', 'pause']) p.addEventListener(n, () => seen.push(n));
      p.addEventListener('ended', () => resolve({ seen, at: p.currentStep, ended: p.ended, paused: p.paused }));
      // The range holds no key frame (holder-crash stops at 25 and 40): nothing pauses it
      // before its end. A run that never ends fails here instead of hanging.
      setTimeout(() => resolve({ seen, at: p.currentStep, ended: false, timedOut: true }), 15000);
      p.play();
    }));
    assert.ok(got.seen.includes('play') && got.seen.includes('step'), JSON.stringify(got));
    assert.equal(got.at, 32, JSON.stringify(got));
    assert.ok(got.ended && got.paused);
    await page.evaluate(() => document.getElementById('p').seek(40));
    await page.waitForFunction(() => document.getElementById('p').currentStep === 40);
    const h = await page.evaluate(() => document.querySelector('#p iframe').getBoundingClientRect().height);
    assert.ok(h > 300 && h !== 500, `sized from its resize message: ${h}`);
  } finally { await done(); }
});

test('"Open in Lockstep" under sandbox="allow-scripts" says why nothing opened and offers the address', async () => {
  const { page, done } = await host('sandbox', '<iframe id="f" src="./?preset=herd&embed=1&at=5" width="800" height="500" sandbox="allow-scripts"></iframe>');
  try {
    const frame = page.frameLocator('#f');
    await frame.locator('.ls-embed__open').waitFor({ timeout: 20000 });
    await frame.locator('.ls-embed__open').click();
    const note = frame.locator('.ls-embed__notice');
    await note.waitFor();
    assert.match(await note.innerText(), /allow-popups/);
    assert.match(await note.locator('input').inputValue(), /preset=herd/);
  } finally { await done(); }
});

test('a preset\'s share page carries Open Graph tags whose picture exists, and opens the app at its run', async () => {
  const dir = path.join(DIST, 'share');
  assert.ok(fs.existsSync(path.join(dir, 'gc-pause.html')), 'scripts/build.sh wrote dist/share/');
  const html = fs.readFileSync(path.join(dir, 'gc-pause.html'), 'utf8');
  const meta = (p) => html.match(new RegExp(`<meta (?:property|name)="${p}" content="([^"]*)"`))?.[1];
  for (const p of ['og:title', 'og:description', 'og:image', 'twitter:card', 'twitter:image']) assert.ok(meta(p), `${p} in ${html.slice(0, 400)}`);
  assert.match(meta('og:title'), /GC pause/);
  const image = path.join(dir, path.basename(meta('og:image')));
  assert.ok(fs.existsSync(image) && fs.statSync(image).size > 10_000, `${image} exists`);
  assert.ok(fs.existsSync(path.join(dir, 'gc-pause.zh.html')) && fs.existsSync(path.join(dir, 'learn-herd.html')));
  const { page, done } = await host('share-open', '');
  try {
    await page.goto(`${srv.url}share/gc-pause.html?at=31`);
    await page.waitForURL(/index\.html\?preset=gc-pause&lang=en&at=31/);
    await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
    assert.match(await page.title(), /GC pause, no fencing · Lockstep/);
  } finally { await done(); }
});
