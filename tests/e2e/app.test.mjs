// The app as a learner uses it: stepping, history, playback, faults from a client's popover,
// sharing, embedding, languages, hostile links, import/export — in Debian's Chromium against
// the release build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, watchedPage, screenshotOnFailure, withPage as sharedWithPage, position, openTab, clientAct, clickCard } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

/** Runs `body(page)` on a fresh page at `query` (see harness `withPage`). */
const withPage = (name, query, body, opts) =>
  sharedWithPage(browser, new URL(srv.url).origin, name, `${srv.url}${query ? `?${query}` : ''}`, body, opts);

const stepN = async (page, n) => { for (let i = 0; i < n; i++) await page.locator('#ls-step').click(); };
/** The stage once its transition has finished, and the caption. */
const settled = async (page) => { await page.waitForTimeout(60); return page.evaluate(() => new Promise((done) => {
  const grab = () => `${document.querySelector('#ls-stage').innerHTML}\n${document.querySelector('#ls-caption').textContent}`;
  let last = grab();
  const check = () => { const now = grab(); if (now === last) done(now); else { last = now; setTimeout(check, 120); } };
  setTimeout(check, 120);
})); };
const caption = (page) => page.locator('#ls-caption').innerText();
const cards = (page) => page.locator('#ls-stage .ls-card').count();

test('loads the default scenario with its lesson and the whole run on the timeline', () => withPage('load', '', async (page) => {
  assert.equal(await page.locator('.ls-title').innerText(), 'Lockstep');
  assert.match(await page.locator('#ls-lesson').innerText(), /sequential/);
  assert.equal(await cards(page), 6);
  const p = await position(page);
  assert.ok(p.len > 100, `the slider covers the whole run from the start (${p.len} steps)`);
  assert.ok(await page.locator('.ls-timeline .ls-mark').count() >= 2, 'key frames are marked');
  // A first visit moves on its own within two seconds (a link with a query waits: see below).
  await page.waitForFunction(() => /^step [1-9]/.test(document.querySelector('#ls-position')?.textContent ?? ''), null, { timeout: 2500 });
  assert.equal(await page.locator('#ls-play').getAttribute('aria-pressed'), 'true');
  // The lesson's words wrap inside the side panel (the lesson editor's dialog width once
  // leaked onto them through a shared class, and cut every line at the window's edge).
  const fits = await page.locator('#ls-lesson').evaluate((p) => p.getBoundingClientRect().right <= p.parentElement.getBoundingClientRect().right + 1);
  assert.ok(fits, 'the lesson paragraph stays within its panel');
}));

test('a link with a query opens still, at its step', () => withPage('still', 'preset=queue', async (page) => {
  await page.waitForTimeout(1500);
  assert.equal((await position(page)).step, 0);
  assert.equal(await page.locator('#ls-play').getAttribute('aria-pressed'), 'false');
}));

test('step forward then back restores the same stage', () => withPage('back', 'preset=queue', async (page) => {
  await stepN(page, 12);
  const at = (await position(page)).step;
  const before = await settled(page);
  await stepN(page, 5);
  assert.notEqual(await settled(page), before);
  for (let i = 0; i < 5; i++) await page.locator('#ls-back').click();
  assert.equal((await position(page)).step, at);
  assert.equal(await settled(page), before);
}));

test('Step skips heartbeats unless they are shown; a link keeps its exact step', () => withPage('pings', 'preset=herd&at=40', async (page) => {
  for (let i = 0; i < 15; i++) {
    await page.locator('#ls-step').click();
    assert.doesNotMatch(await caption(page), /\bping\b|\bpong\b|heartbeat/i);
  }
  const skipped = (await position(page)).step - 40;
  assert.ok(skipped > 15, `15 steps skipped the pings (${skipped})`);
  await page.locator('#ls-pings').check();
  let saw = false;
  for (let i = 0; i < 40 && !saw; i++) { await page.locator('#ls-step').click(); saw = /ping|pong/.test(await caption(page)); }
  assert.ok(saw, 'with heartbeats shown, Step stops at pings');
  await page.goto(`${srv.url}?preset=herd&at=50`);
  await page.locator('#ls-stage').waitFor();
  assert.equal((await position(page)).step, 50);
}));

test('entries keep their row in sequence order, tinted by owner, with their fields on click', () => withPage('tree', 'preset=queue&at=48', async (page) => {
  const ys = await page.locator('#ls-stage rect[data-entry^="/locks/lock-"].ls-entry').evaluateAll((els) =>
    els.map((e) => [e.dataset.entry, Number(e.getAttribute('y'))]));
  assert.ok(ys.length >= 5);
  const byY = [...ys].sort((a, b) => a[1] - b[1]).map((x) => x[0]);
  assert.deepEqual(byY, [...byY].sort(), 'top to bottom in sequence order');
  const tip = await page.locator('#ls-stage rect.ls-entry[data-entry="/locks/lock-0000000000"] title').textContent();
  assert.match(tip, /czxid \d+ · mzxid \d+ · pzxid \d+/);
  await page.locator('#ls-stage rect.ls-entry[data-entry="/locks/lock-0000000001"]').click({ force: true });
  const insp = await page.locator('#ls-inspector').innerText();
  assert.match(insp, /cversion/);
  assert.match(insp, /ephemeralOwner\s+C2/);
}));

test('play runs and pauses itself on the next key frame', () => withPage('play', 'preset=herd', async (page) => {
  await page.selectOption('#ls-speed', '4');
  await page.locator('#ls-play').click();
  await page.waitForFunction(() => document.querySelector('#ls-play').getAttribute('aria-pressed') === 'false', null, { timeout: 20000 });
  const p = await position(page);
  const marks = await page.locator('.ls-timeline .ls-mark').evaluateAll((els) => els.map((e) => Number(e.dataset.step)));
  assert.equal(p.step, Math.min(...marks), 'stopped on the first key frame');
  assert.match(await page.locator('#ls-caption').getAttribute('class'), /ls-caption--key/);
  assert.match(await caption(page), /5 watches/);
}));

test('every fault can be injected from a client on the stage', () => withPage('faults', 'preset=queue&at=40', async (page) => {
  const expect = { crash: /crashes/, pause: /GC pause/, partition: /cut/, expire: /expires C\d's session/, drop: /next reply/, close: /closes its session/ };
  for (const [act, re] of Object.entries(expect)) {
    const client = act === 'crash' ? 5 : act === 'close' ? 4 : 1;
    await clientAct(page, client, act);
    assert.match(await caption(page), re, act);
    await stepN(page, 2);
  }
  await clientAct(page, 2, 'partition');
  await clientAct(page, 2, 'partition'); // now "Heal"
  assert.match(await caption(page), /is back/);
  await clientAct(page, 3, 'acquire');
  assert.match(await caption(page), /asked to acquire/);
  await clickCard(page, 0);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#ls-pop').count(), 0, 'Escape closes the popover');
  await openTab(page, 'settings');
  await page.selectOption('#ls-latency', 'c');
  assert.match(await caption(page), /latency is now 3–10 ticks/);
}));

test('settings follow an imported run (the lean page hands it to the full one), and Apply keeps them', () => withPage('draft', 'preset=queue', async (page) => {
  const run = { scenario: { recipe: 'naive', clients: 4, seed: 9 }, forced: [] };
  await page.setInputFiles('#ls-import', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
  await page.waitForURL(/\/full\.html\?preset=custom/);
  await page.waitForFunction(() => document.querySelectorAll('#ls-stage .ls-card').length === 4);
  await openTab(page, 'settings');
  assert.equal(await page.locator('#ls-recipe').inputValue(), 'naive');
  assert.equal(await page.locator('#ls-clients').inputValue(), '4');
  await page.locator('#ls-apply').click();
  assert.equal(await cards(page), 4);
  assert.equal(await page.locator('#ls-recipe').inputValue(), 'naive');
}));

test('the ID generator preset shows the duplicate ID on the stage', () => withPage('ids', 'preset=ids-unlocked', async (page) => {
  await page.locator('#ls-last').click();
  assert.match(await page.locator('#ls-stage [data-evidence~="ledger-lost"]').first().textContent(), /ID/);
  await openTab(page, 'monitors');
  await page.locator('[data-monitor="lost_update"]').waitFor();
}));

test('a share link reopens exactly the same frame', () => withPage('share', 'preset=gc-pause&seed=3', async (page) => {
  await stepN(page, 6);
  await clientAct(page, 1, 'pause');
  await stepN(page, 3);
  const at = (await position(page)).step;
  const frame = await settled(page);
  await page.locator('#ls-share').click();
  const url = await page.locator('#ls-share-text').inputValue();
  assert.match(url, /preset=gc-pause/);
  assert.match(url, /cmds=/);
  const other = await browser.newPage();
  await other.setViewportSize({ width: 1400, height: 1000 });
  await other.goto(url);
  await other.locator('#ls-stage text').first().waitFor();
  assert.equal((await position(other)).step, at);
  assert.equal(await settled(other), frame);
  await other.close();
}));

test('language switch translates the stage, caption and lesson', () => withPage('lang', 'preset=herd&at=36', async (page) => {
  await page.locator('#ls-lang').click();
  assert.match(await caption(page), /[\u4e00-\u9fff]/);
  assert.match(await page.locator('#ls-lesson').innerText(), /羊群/);
  assert.match(await page.locator('#ls-stage .ls-card__status').first().textContent(), /[\u4e00-\u9fff]/);
  await page.waitForURL(/lang=zh/); // the address bar follows, debounced
  assert.equal(await page.locator('.ls-app').getAttribute('lang'), 'zh-Hans');
}));

test('hostile query parameters show errors and fall back to defaults', () => withPage('hostile',
  'preset=%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E&clients=99999999999999999999999&seed=abc&at=-5&lang=%3Cscript%3E&cmds=%ZZ&scenario=eyJ',
  async (page) => {
    // `scenario` is JSON, which the lean page hands to the full one unread.
    await page.waitForURL(/\/full\.html\?/);
    const err = page.locator('#ls-error');
    await err.waitFor();
    const text = await err.innerText();
    assert.match(text, /`scenario`: scenario string is not base64url: stray bits in the last character/);
    assert.match(text, /unknown scenario "<img src=x onerror=window.__xss=1>"/);
    assert.match(text, /`clients` must be 1 to 200/);
    assert.match(text, /`seed` must be a whole number/);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.equal(await page.locator('#ls-error img').count(), 0);
    assert.equal(await cards(page), 6, 'defaults: the queue preset');
    await stepN(page, 3);
    assert.ok((await position(page)).step >= 3);
  }));

test('keyboard: arrows, Home/End, space and the help overlay', () => withPage('keys', 'preset=queue', async (page) => {
  await page.locator('#ls-pings').check();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  assert.equal((await position(page)).step, 4);
  await page.keyboard.press('ArrowLeft');
  assert.equal((await position(page)).step, 3);
  await page.keyboard.press('End');
  assert.ok((await position(page)).step > 100);
  await page.keyboard.press('Home');
  assert.equal((await position(page)).step, 0);
  await page.keyboard.press('?');
  await page.locator('#ls-help-dialog').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#ls-help-dialog').count(), 0);
}));

test('a monitor failure offers a jump to the step where it first failed', () => withPage('monitor', 'preset=gc-pause', async (page) => {
  await page.locator('#ls-last').click();
  await openTab(page, 'monitors');
  const alert = page.locator('[data-monitor="lost_update"]');
  await alert.waitFor();
  const step = Number((await alert.locator('button').innerText()).match(/(\d+)$/)[1]);
  await alert.locator('button').click();
  assert.equal((await position(page)).step, step);
  assert.match(await caption(page), /update is lost/);
}));

test('export SVG and run JSON, import a run, and reject a bad file', () => withPage('io', 'preset=queue&at=9', async (page) => {
  await page.locator('#ls-more').click();
  const [svg] = await Promise.all([page.waitForEvent('download'), page.locator('#ls-export-svg').click()]);
  assert.equal(svg.suggestedFilename(), 'lockstep-frame.svg');
  const text = Buffer.concat(await (await svg.createReadStream()).toArray()).toString();
  assert.match(text, /^<svg[^>]*xmlns/);
  assert.match(text, /ls-card/, 'the export draws the same stage');
  await page.locator('#ls-more').click();
  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('#ls-export-json').click()]);
  const run = JSON.parse(Buffer.concat(await (await json.createReadStream()).toArray()).toString());
  assert.equal(run.scenario.recipe, 'sequential');
  // The lean page hands a file to the full one with its own run beside it: a bad file leaves
  // the same run at the same step there, with the reason.
  await page.setInputFiles('#ls-import', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"clients": -1}') });
  await page.waitForURL(/\/full\.html\?preset=queue/);
  await page.locator('#ls-error').waitFor();
  assert.match(await page.locator('#ls-error').innerText(), /`run`: scenario field `clients`/);
  assert.equal(await cards(page), 6, 'the running simulation is kept');
  assert.equal((await position(page)).step, 9);
  run.scenario.clients = 2;
  await page.setInputFiles('#ls-import', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
  await page.waitForFunction(() => document.querySelectorAll('#ls-stage .ls-card').length === 2);
  await page.setInputFiles('#ls-import', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"clients": -1}') });
  await page.locator('#ls-error').waitFor();
  assert.equal(await cards(page), 2, 'the running simulation is kept');
}));

test('embed mode works in sandboxed iframes at 800x500 (public/embed-example.html)', async () => {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  try {
    await page.setViewportSize({ width: 1700, height: 700 });
    await page.goto(`${srv.url}public/embed-example.html`);
    for (const id of ['#embed-herd', '#embed-queue']) {
      const frame = page.frameLocator(id);
      await frame.locator('#ls-stage text').first().waitFor({ timeout: 15000 });
      assert.equal(await frame.locator('.ls-top').count(), 0, 'no top bar in embed mode');
      assert.equal(await frame.locator('.ls-drawer').count(), 0, 'no drawer in embed mode');
      await frame.locator('#ls-step').click();
      await frame.locator('#ls-step').click();
      assert.ok((await position(frame)).step >= 2);
    }
    assert.match(await page.frameLocator('#embed-queue').locator('#ls-caption').innerText(), /[\u4e00-\u9fff]/);
    // The stylesheets load inside the opaque-origin frames (they are fetched with CORS).
    assert.equal(await page.frameLocator('#embed-herd').locator('.ls-stage-host').evaluate((e) => getComputedStyle(e).borderTopStyle), 'solid');
    assert.deepEqual(problems.consoleErrors.filter((e) => /Integrity/.test(e)), [], 'stylesheet blocked');
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } catch (e) {
    await screenshotOnFailure(page, 'embed');
    throw e;
  } finally {
    await page.close();
  }
});

test('usable at 360 px wide', () => withPage('narrow', 'preset=queue', async (page) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await stepN(page, 2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page scrolls sideways by ${overflow}px`);
  assert.equal(await cards(page), 6);
  // The first screen holds the top bar, the stage, its caption and the transport.
  const box = (sel) => page.locator(sel).evaluate((e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; });
  assert.ok((await box('.ls-top')).bottom <= 60, `top bar ${(await box('.ls-top')).bottom}px tall`);
  for (const sel of ['#ls-stage', '#ls-caption', '#ls-step', '#ls-play']) {
    assert.ok((await box(sel)).bottom <= 740, `${sel} below the fold`);
  }
  // The More menu opens over the page (the scrolling top bar does not clip it).
  await page.locator('#ls-more').click();
  const item = await box('#ls-export-svg');
  assert.ok(item.top >= 0 && item.bottom <= 740, JSON.stringify(item));
  assert.equal(await page.locator('#ls-export-svg').evaluate((e) => {
    const r = e.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === e;
  }), true, 'the menu item is on top, not clipped');
}));

test('an embed caption with two key frames on one step is read whole, from its first word', () => withPage('caption-fit', 'preset=holder-crash&at=40&embed=1&lang=zh', async (page) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.locator('#ls-caption .ls-caption__key').waitFor();
  await page.waitForTimeout(300);
  const fit = await page.evaluate(() => {
    const box = document.querySelector('#ls-caption').getBoundingClientRect();
    const key = document.querySelector('#ls-caption .ls-caption__key');
    const r = key.getBoundingClientRect();
    return { top: r.top - box.top, bottom: box.bottom - r.bottom, clamped: key.scrollHeight > key.clientHeight + 1, text: key.textContent };
  });
  assert.ok(fit.top >= 0 && fit.bottom >= 0, `the key caption sits inside its box: ${JSON.stringify(fit)}`);
  assert.ok(!fit.clamped, `no line of it is cut: ${fit.text}`);
  assert.doesNotMatch(fit.text, /。 /, 'no space after a Chinese full stop');
}));

test('a page caption whose key frame takes two lines keeps the step\'s own line whole below it', () => withPage('caption-page', 'preset=redlock-majority&at=63', async (page) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator('#ls-caption .ls-caption__key').waitFor();
  await page.waitForTimeout(300);
  const fit = await page.evaluate(() => {
    const box = document.querySelector('#ls-caption').getBoundingClientRect();
    const key = document.querySelector('#ls-caption .ls-caption__key');
    const now = document.querySelector('#ls-caption .ls-caption__now');
    const lines = Math.round(key.getBoundingClientRect().height / parseFloat(getComputedStyle(key).lineHeight));
    return { lines, below: box.bottom - now.getBoundingClientRect().bottom, text: now.textContent };
  });
  assert.equal(fit.lines, 2, 'this key caption takes two lines at 1440x900');
  assert.ok(fit.below >= 0, `the step's line ends inside the caption box: ${JSON.stringify(fit)}`);
}));
