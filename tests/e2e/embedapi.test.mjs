// The embed API: a host page (public/embed-article.html) drives a sandboxed embed with
// postMessage (seek, step, play, pause, load) and hears lockstep:ready and lockstep:frame;
// hostile messages leave the embed running.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, watchedPage, screenshotOnFailure, position } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

/** Opens the article with a recorder of what the embed posts to it. */
async function article() {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  await page.addInitScript(() => {
    if (window !== window.top) return;
    window.__ev = [];
    window.addEventListener('message', (e) => window.__ev.push(e.data));
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${srv.url}public/embed-article.html`);
  await page.waitForFunction(() => window.__ev.some((e) => e && e.type === 'lockstep:ready'), null, { timeout: 20000 });
  return { page, problems, frame: page.frameLocator('#embed') };
}

const send = (page, msg) => page.evaluate((m) => document.getElementById('embed').contentWindow.postMessage(m, '*'), msg);
/** The last frame event, once one satisfies `pred` (a function source over `e`). */
async function frameEvent(page, pred) {
  const h = await page.waitForFunction((p) => {
    const ok = new Function('e', `return ${p}`);
    const fs = window.__ev.filter((e) => e && e.type === 'lockstep:frame');
    const last = fs[fs.length - 1];
    return last && ok(last) ? last : null;
  }, pred, { timeout: 15000 });
  return h.jsonValue();
}

test('a host page seeks, steps, plays, pauses and loads a sandboxed embed, and hears every frame', async () => {
  const { page, problems } = await article();
  const frame = page.frameLocator('#embed');
  try {
    const ready = await page.evaluate(() => window.__ev.find((e) => e.type === 'lockstep:ready'));
    assert.equal(ready.version, 2);
    assert.ok(Array.isArray(ready.keyFrames) && ready.keyFrames.some((k) => k.kind === 'two-holders' && k.step === 31), JSON.stringify(ready.keyFrames));
    assert.ok(ready.length > 31 && ready.lang === 'en', JSON.stringify(ready));
    const first = await frameEvent(page, 'e.at === 0');
    assert.match(first.caption, /GC pause|pause/i, 'the first frame names the preset');

    await send(page, { type: 'lockstep:seek', at: 31 });
    const two = await frameEvent(page, 'e.at === 31');
    assert.equal(two.keyFrame, 'two-holders');
    assert.ok(two.steps >= 31 && two.caption.length > 10, JSON.stringify(two));
    assert.equal((await position(frame)).step, 31, 'the embed shows the step it reports');

    await send(page, { type: 'lockstep:step', by: 3 });
    const on = await frameEvent(page, 'e.at > 33');
    await send(page, { type: 'lockstep:step', by: -1 });
    await frameEvent(page, `e.at < ${on.at}`);

    await send(page, { type: 'lockstep:play' });
    await frame.locator('#ls-play[aria-pressed="true"]').waitFor();
    await frameEvent(page, `e.at > ${on.at}`);
    await send(page, { type: 'lockstep:pause' });
    await frame.locator('#ls-play[aria-pressed="false"]').waitFor();

    await send(page, { type: 'lockstep:load', query: 'preset=queue&at=5&lang=zh' });
    const q = await frameEvent(page, "e.at === 5 && e.lang === 'zh'");
    assert.match(q.caption, /[\u4e00-\u9fff]/, 'the caption follows the loaded language');
    await frame.locator('#ls-stage .ls-card').nth(5).waitFor();
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) {
    await screenshotOnFailure(page, 'embed-api');
    throw e;
  } finally {
    await page.close();
  }
});

test('malformed, unknown, huge and deep messages leave the embed running', async () => {
  const { page, problems } = await article();
  const frame = page.frameLocator('#embed');
  try {
    await send(page, { type: 'lockstep:seek', at: 12 });
    await frameEvent(page, 'e.at === 12');
    const count = () => page.evaluate(() => window.__ev.length);
    const before = await count();
    await page.evaluate(() => {
      const w = document.getElementById('embed').contentWindow;
      const deep = {}; let d = deep;
      for (let i = 0; i < 1000; i++) { d.x = {}; d = d.x; }
      const cyclic = { type: 'lockstep:nothing' }; cyclic.self = cyclic;
      const hostile = [null, 42, 'lockstep:seek', [1, 2], { type: 7 }, { type: 'lockstep:seek' },
        { type: 'lockstep:seek', at: 1e308 }, { type: 'lockstep:seek', at: -5 }, { type: 'lockstep:seek', at: 2.5 },
        { type: 'lockstep:seek', at: '20' }, { type: 'lockstep:seek', at: Number.NaN },
        { type: 'lockstep:step', by: -1e9 }, { type: 'lockstep:step', by: 1e6 },
        { type: 'x'.repeat(1 << 20) }, { type: 'lockstep:load', query: 'q'.repeat(1 << 20) },
        { type: 'lockstep:load' }, { type: 'lockstep:load', query: 42 },
        { type: 'lockstep:frame', at: 99 }, { type: 'lockstep:ready' }, { type: 'lockstep:destroy' },
        { type: 'lockstep:seek', at: 12, deep }, cyclic, { type: 'lockstep:pause', self: cyclic }];
      for (const m of hostile) w.postMessage(m, '*');
    });
    // The load of an unknown preset is refused whole: an error, and the same run.
    await send(page, { type: 'lockstep:load', query: 'preset=no-such-preset&at=3' });
    await frame.locator('#ls-error').waitFor();
    assert.match(await frame.locator('#ls-error').innerText(), /lockstep:load/);
    await page.waitForTimeout(500);
    assert.equal((await position(frame)).step, 12, 'nothing moved the run');
    const after = await page.evaluate((n) => window.__ev.slice(n).filter((e) => e.type === 'lockstep:frame' && e.at !== 12).length, before);
    assert.equal(after, 0, 'no frame event for a refused message');
    // Still obeying.
    await send(page, { type: 'lockstep:seek', at: 17 });
    const ev = await frameEvent(page, 'e.at === 17');
    assert.equal(ev.keyFrame, 'client-paused');
    assert.deepEqual(problems.consoleErrors.filter((e) => /panicked|RuntimeError|unreachable/.test(e)), []);
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) {
    await screenshotOnFailure(page, 'embed-api-hostile');
    throw e;
  } finally {
    await page.close();
  }
});
