// The stage teaches: every preset's key frames draw their evidence on the stage itself (and
// their captions fit an embed), text
// stays readable at every size, messages move along their wires between two animation
// frames, reduced motion is instant, and a frame that cannot start says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, watchedPage, screenshotOnFailure, position, DIST } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

/** A page at `query` with the stage drawn; closes it after `body`. */
async function open(name, query, size, body) {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  try {
    await page.setViewportSize({ width: size[0], height: size[1] });
    await page.goto(`${srv.url}?${query}`);
    await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
    await body(page);
    assert.deepEqual(problems.pageErrors, [], 'page errors');
    assert.deepEqual(problems.consoleErrors, [], 'console errors');
  } catch (e) {
    await screenshotOnFailure(page, name);
    throw e;
  } finally {
    await page.close();
  }
}

/** Every preset id, as the lean page's picker lists them. */
async function presetIds() {
  let ids = [];
  await open('ids', 'preset=queue', [1400, 900], async (page) => {
    ids = await page.locator('#ls-preset option:not([disabled])').evaluateAll((os) => os.map((o) => o.value));
  });
  return ids;
}

/** The key frames marked on the timeline: [{ step, evidence }]. */
const marks = (page) => page.locator('.ls-timeline .ls-mark').evaluateAll((els) =>
  els.map((e) => ({ step: Number(e.dataset.step), evidence: e.dataset.evidence })));

/** Pairs of timeline marks whose diamonds lie over each other: ["step a/step b at Δpx"]. */
const crowded = (page) => page.locator('.ls-timeline .ls-mark').evaluateAll((els) => {
  const at = els.map((e) => { const r = e.getBoundingClientRect(); return [e.dataset.step, r.left + r.width / 2]; });
  return at.slice(1).flatMap(([s, x], i) => (x - at[i][1] < 17 ? [`${at[i][0]}/${s} at ${(x - at[i][1]).toFixed(1)}px`] : []));
});

test('every preset draws the evidence of each of its key frames on the stage', async () => {
  const ids = await presetIds();
  assert.ok(ids.length >= 28, `${ids.length} presets`);
  for (const id of ids) {
    await open(`keyframes-${id}`, `preset=${id}`, [1440, 900], async (page) => {
      const found = await marks(page);
      assert.ok(found.length >= 1, `${id}: no key frames`);
      assert.deepEqual(await crowded(page), [], `${id}: timeline marks over each other at 1440×900`);
      await page.setViewportSize({ width: 800, height: 500 });
      await page.waitForTimeout(100);
      assert.deepEqual(await crowded(page), [], `${id}: timeline marks over each other at 800×500`);
      await page.setViewportSize({ width: 1440, height: 900 });
      for (const m of found) {
        await page.locator(`.ls-timeline .ls-mark[data-step="${m.step}"]`).dispatchEvent('click');
        assert.equal((await position(page)).step, m.step, `${id}: the mark seeks`);
        for (const e of m.evidence.split(' ')) {
          const n = await page.locator(`#ls-stage [data-evidence~="${e}"]`).count();
          assert.ok(n > 0, `${id} step ${m.step}: no "${e}" on the stage`);
        }
        assert.match(await page.locator('#ls-caption').getAttribute('class'), /ls-caption--key/, `${id} step ${m.step}: caption`);
      }
    });
  }
});

/** The smallest rendered text on the stage: { px, text }. */
const smallestText = (page) => page.evaluate(() => {
  const svg = document.querySelector('#ls-stage');
  const scale = svg.getScreenCTM().a;
  let min = { px: Infinity, text: '' };
  for (const t of svg.querySelectorAll('text')) {
    if (!t.textContent.trim() || t.getBBox().width === 0) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (px < min.px) min = { px, text: t.textContent };
  }
  return min;
});

test('every key frame\'s caption fits its two lines in an 800×500 embed', async () => {
  const ids = await presetIds();
  const cut = [];
  for (const [id, lang] of ids.flatMap((i) => [[i, 'en'], [i, 'zh']])) {
    await open(`captions-${id}-${lang}`, `preset=${id}&embed=1&lang=${lang}`, [800, 500], async (page) => {
      for (const m of await marks(page)) {
        await page.locator(`.ls-timeline .ls-mark[data-step="${m.step}"]`).dispatchEvent('click');
        assert.equal((await position(page)).step, m.step, `${id}: the mark seeks`);
        const key = page.locator('.ls-caption__key');
        await key.waitFor();
        const clamped = await key.evaluate((e) => e.scrollHeight > e.clientHeight + 1);
        if (clamped) cut.push(`${id} ${lang} step ${m.step}: ${await key.textContent()}`);
      }
    });
  }
  assert.deepEqual(cut, [], 'key-frame captions cut at 800×500');
});

test('stage text meets its size floor at 1440×900, 800×500, 640×400 and 360×740', async () => {
  const sizes = [[1440, 900, '', 13], [800, 500, '&embed=1', 12], [640, 400, '&embed=1', 11], [360, 740, '', 11]];
  const frames = ['preset=herd&at=72', 'preset=gc-pause-fenced&at=70', 'preset=semaphore&at=177', 'preset=lost-reply&at=32',
    'preset=rwlock&at=137', 'preset=redis-failover&at=12', 'preset=sql-row-lock&at=7', 'preset=etcd-mutex&at=31'];
  for (const [w, h, extra, floor] of sizes) {
    for (const q of frames) {
      await open(`size-${w}-${q}`, `${q}${extra}`, [w, h], async (page) => {
        const min = await smallestText(page);
        assert.ok(min.px >= floor - 0.01, `${q} at ${w}×${h}: "${min.text}" renders at ${min.px}px (< ${floor})`);
      });
    }
  }
});

test('ten clients keep their names and states in a 640×400 embed and an 800×500 course embed', async () => {
  for (const [w, h, q] of [[640, 400, 'preset=ids-locked&at=118&embed=1'], [800, 500, 'learn=ids&at=84&embed=1']]) {
    await open(`ten-${w}`, q, [w, h], async (page) => {
      const cards = await page.evaluate(() => [...Array(10).keys()].map((c) => {
        const text = (k) => document.querySelector(`#ls-stage .ls-card__${k}[data-client="${c}"]`)?.textContent ?? "";
        return [text('name'), text('status')];
      }));
      for (const [i, [name, status]] of cards.entries()) {
        assert.equal(name, `C${i + 1}`, `${q}: card ${i + 1} has its name`);
        assert.ok(status.length > 0 && !status.endsWith('…'), `${q}: C${i + 1}'s status "${status}" is whole`);
      }
      const min = await smallestText(page);
      assert.ok(min.px >= 11 - 0.01, `${q}: "${min.text}" renders at ${min.px}px`);
    });
  }
});

test('the drawing is the largest thing on the page at 1440×900', () => open('area', 'preset=queue&at=48', [1440, 900], async (page) => {
  const share = await page.evaluate(() => {
    const r = document.querySelector('#ls-stage').getBoundingClientRect();
    return (r.width * r.height) / (window.innerWidth * window.innerHeight);
  });
  assert.ok(share >= 0.5, `the stage covers ${Math.round(share * 100)}% of the viewport`);
  assert.equal(await page.locator('.ls-top button[data-act]').count(), 0, 'no rows of per-client buttons');
}));

test('a message is between its wire ends in two animation frames of one step', () => open('motion', 'preset=queue', [1400, 900], async (page) => {
  await page.selectOption('#ls-speed', '0');
  let seen = null;
  for (let i = 0; i < 12 && !seen; i++) {
    seen = await page.evaluate(() => new Promise((done) => {
      const svg = document.querySelector('#ls-stage');
      const samples = {};
      const ends = () => {
        const wires = [...svg.querySelectorAll('line.ls-wire')].map((l) => [Number(l.getAttribute('x1')), Number(l.getAttribute('x2'))]);
        return wires[0];
      };
      const [x1, x2] = ends();
      const t0 = performance.now();
      const frame = () => {
        for (const c of svg.querySelectorAll('circle[data-msg]')) {
          const id = c.dataset.msg, x = Number(c.getAttribute('cx'));
          if (x > x1 + 1 && x < x2 - 1) (samples[id] ??= new Set()).add(x);
        }
        if (performance.now() - t0 < 500) requestAnimationFrame(frame);
        else {
          const moving = Object.entries(samples).find(([, xs]) => xs.size >= 2);
          done(moving ? { id: moving[0], xs: [...moving[1]].slice(0, 4), x1, x2 } : null);
        }
      };
      document.querySelector('#ls-step').click();
      requestAnimationFrame(frame);
    }));
  }
  assert.ok(seen, 'some message moved along its wire during a step');
  assert.ok(seen.xs.every((x) => x > seen.x1 && x < seen.x2), JSON.stringify(seen));
}));

test('with reduced motion a step lands at once', async () => {
  const { page } = await watchedPage(browser, new URL(srv.url).origin);
  try {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${srv.url}?preset=queue&at=30`);
    await page.locator('#ls-stage text').first().waitFor();
    const same = await page.evaluate(() => new Promise((done) => {
      document.querySelector('#ls-step').click();
      requestAnimationFrame(() => {
        const first = document.querySelector('#ls-stage').innerHTML;
        setTimeout(() => done(first === document.querySelector('#ls-stage').innerHTML), 700);
      });
    }));
    assert.ok(same, 'no transition frames');
  } finally {
    await page.close();
  }
});

test('an embed whose host sends no CORS header says why it cannot start', async () => {
  const plain = await serveDist({ cors: false });
  const host = path.join(DIST, 'e2e-nocors-host.html');
  fs.writeFileSync(host, '<!doctype html><title>host</title><link rel="icon" href="data:,"><iframe src="./?preset=herd&embed=1" width="800" height="500" sandbox="allow-scripts"></iframe>');
  const page = await browser.newPage();
  try {
    await page.goto(`${plain.url}e2e-nocors-host.html`);
    const frame = page.frameLocator('iframe');
    await frame.locator('.ls-boot--failed').waitFor({ timeout: 20000 });
    const text = await frame.locator('#ls-boot').innerText();
    assert.match(text, /could not start/);
    assert.match(text, /Access-Control-Allow-Origin/);
    assert.match(text, /无法启动/);
  } finally {
    await page.close();
    fs.unlinkSync(host);
    plain.close();
  }
});
