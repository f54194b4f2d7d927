// The app as a learner uses it: stepping, history, playback, faults, sharing, embedding,
// languages, hostile links, import/export — in Debian's Chromium against the release build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, watchedPage, screenshotOnFailure, withPage as sharedWithPage } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

/** Runs `body(page)` on a fresh page at `query` (see harness `withPage`). */
const withPage = (name, query, body, opts) =>
  sharedWithPage(browser, new URL(srv.url).origin, name, `${srv.url}${query ? `?${query}` : ''}`, body, opts);

const position = (page) => page.locator('#ls-position').innerText();
const stepN = async (page, n) => { for (let i = 0; i < n; i++) await page.locator('#ls-step').click(); };
const snapshot = (page) => page.evaluate(() => ['#ls-stage', '#ls-narration', '.ls-clients__list', '#ls-value']
  .map((s) => document.querySelector(s)?.innerHTML ?? '').join('\n'));

test('loads the default scenario with its lesson', () => withPage('load', '', async (page) => {
  assert.equal(await page.locator('.ls-title').innerText(), 'Lockstep');
  assert.match(await page.locator('#ls-lesson').innerText(), /sequential/);
  assert.equal(await page.locator('.ls-client').count(), 6);
  assert.match(await position(page), /step 0 \//);
}));

test('step forward then back restores the same DOM', () => withPage('back', 'preset=queue', async (page) => {
  await stepN(page, 20);
  const before = await snapshot(page);
  await stepN(page, 7);
  assert.notEqual(await snapshot(page), before);
  for (let i = 0; i < 7; i++) await page.locator('#ls-back').click();
  assert.equal(await snapshot(page), before);
  assert.match(await position(page), /step 20 /);
}));

test('znodes appear in sequence order, tinted by owner, with stats on hover', () => withPage('tree', 'preset=queue', async (page) => {
  await stepN(page, 30);
  const paths = await page.locator('[data-path^="/locks/lock-"]').evaluateAll((els) => els.map((e) => e.dataset.path));
  assert.ok(paths.length >= 3);
  assert.deepEqual(paths, [...paths].sort());
  const tip = await page.locator('[data-path="/locks/lock-0000000000"] title').textContent();
  assert.match(tip, /czxid \d+ · mzxid \d+ · pzxid \d+/);
  assert.match(tip, /ephemeralOwner: C1/);
  assert.ok(await page.locator('.ls-znode--ephemeral.ls-znode--sequential').count() >= 3);
  await page.locator('[data-path="/locks/lock-0000000001"]').click();
  const insp = await page.locator('#ls-inspector').innerText();
  assert.match(insp, /\/locks\/lock-0000000001/);
  assert.match(insp, /cversion/);
  assert.match(insp, /ephemeralOwner\s+C2/);
}));

test('play then pause', () => withPage('play', 'preset=queue', async (page) => {
  await page.selectOption('#ls-speed', '5');
  await page.locator('#ls-play').click();
  await page.waitForTimeout(1200);
  await page.locator('#ls-play').click();
  const stopped = await position(page);
  const n = Number(stopped.match(/step (\d+)/)[1]);
  assert.ok(n > 10, `played ${n} steps`);
  await page.waitForTimeout(500);
  assert.equal(await position(page), stopped);
}));

test('every fault can be injected from the client lanes', () => withPage('faults', 'preset=queue', async (page) => {
  await stepN(page, 25);
  const expect = { crash: /crashes/, pause: /GC pause/, partition: /cut/, expire: /expires C\d's session/, drop: /next reply/, close: /closes its session/ };
  for (const [act, re] of Object.entries(expect)) {
    const client = act === 'crash' ? 5 : act === 'close' ? 4 : 1;
    await page.locator(`.ls-client[data-client="${client}"] [data-act="${act}"]`).click();
    assert.match(await page.locator('#ls-narration').innerText(), re, act);
    await stepN(page, 3);
  }
  await page.locator('.ls-client[data-client="2"] [data-act="partition"]').click();
  await page.locator('.ls-client[data-client="2"] [data-act="partition"]').click(); // now "Heal"
  assert.match(await page.locator('#ls-narration').innerText(), /is back/);
  await page.locator('.ls-client[data-client="3"] button', { hasText: 'Acquire' }).click();
  assert.match(await page.locator('#ls-narration').innerText(), /asked to acquire/);
  await page.selectOption('#ls-latency', 'c');
  assert.match(await page.locator('#ls-narration').innerText(), /latency is now 3–10 ticks/);
}));

test('settings follow an imported run, and Apply keeps them', () => withPage('draft', 'preset=queue', async (page) => {
  const run = { scenario: { recipe: 'naive', clients: 4, seed: 9 }, forced: [] };
  await page.setInputFiles('#ls-import', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
  await page.waitForFunction(() => document.querySelectorAll('.ls-client').length === 4);
  assert.equal(await page.locator('#ls-recipe').inputValue(), 'naive');
  assert.equal(await page.locator('#ls-clients').inputValue(), '4');
  await page.locator('#ls-apply').click();
  assert.equal(await page.locator('.ls-client').count(), 4);
  assert.equal(await page.locator('#ls-recipe').inputValue(), 'naive');
}));

test('the ID generator preset reports duplicate IDs', () => withPage('ids', 'preset=ids-unlocked', async (page) => {
  await page.locator('#ls-last').click();
  await page.locator('[data-monitor="lost_update"]').waitFor();
  assert.match(await page.locator('.ls-resource-panel').innerText(), /duplicate ID/);
}));

test('a share link reopens exactly the same frame', () => withPage('share', 'preset=gc-pause&seed=3', async (page) => {
  await stepN(page, 12);
  await page.locator('.ls-client[data-client="1"] [data-act="pause"]').click();
  await stepN(page, 4);
  const frame = await snapshot(page);
  await page.locator('#ls-share').click();
  const url = await page.locator('#ls-share-text').inputValue();
  assert.match(url, /preset=gc-pause/);
  assert.match(url, /cmds=/);
  const other = await browser.newPage();
  await other.goto(url);
  await other.locator('#ls-stage').waitFor();
  assert.equal(await snapshot(other), frame);
  assert.match(await other.locator('#ls-position').innerText(), /step 17 /);
  await other.close();
}));

test('language switch translates labels and narration', () => withPage('lang', 'preset=herd', async (page) => {
  await stepN(page, 3);
  await page.locator('#ls-lang').click();
  assert.match(await page.locator('#ls-narration').innerText(), /[\u4e00-\u9fff]/);
  assert.match(await page.locator('#ls-lesson').innerText(), /羊群/);
  await page.waitForURL(/lang=zh/); // the address bar follows, debounced
  assert.equal(await page.locator('.ls-app').getAttribute('lang'), 'zh-Hans');
}));

test('hostile query parameters show errors and fall back to defaults', () => withPage('hostile',
  'preset=%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E&clients=99999999999999999999999&seed=abc&at=-5&lang=%3Cscript%3E&cmds=%ZZ&scenario=eyJ',
  async (page) => {
    const err = page.locator('#ls-error');
    await err.waitFor();
    const text = await err.innerText();
    assert.match(text, /unknown scenario "<img src=x onerror=window.__xss=1>"/);
    assert.match(text, /`clients` must be 1 to 200/);
    assert.match(text, /`seed` must be a whole number/);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.equal(await page.locator('#ls-error img').count(), 0);
    assert.equal(await page.locator('.ls-client').count(), 6, 'defaults: the queue preset');
    await stepN(page, 3);
    assert.match(await position(page), /step 3 /);
  }));

test('keyboard: arrows, Home/End, space and the help overlay', () => withPage('keys', 'preset=queue', async (page) => {
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  assert.match(await position(page), /step 4 /);
  await page.keyboard.press('ArrowLeft');
  assert.match(await position(page), /step 3 /);
  await page.keyboard.press('End');
  assert.ok(Number((await position(page)).match(/step (\d+)/)[1]) > 100);
  await page.keyboard.press('Home');
  assert.match(await position(page), /step 0 /);
  await page.keyboard.press('?');
  await page.locator('#ls-help-dialog').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#ls-help-dialog').count(), 0);
}));

test('a monitor failure offers a jump to the step where it first failed', () => withPage('monitor', 'preset=gc-pause', async (page) => {
  await page.locator('#ls-last').click();
  const alert = page.locator('[data-monitor="lost_update"]');
  await alert.waitFor();
  const label = await alert.locator('button').innerText();
  const step = Number(label.match(/(\d+)$/)[1]);
  await alert.locator('button').click();
  assert.match(await position(page), new RegExp(`step ${step} `));
  assert.match(await page.locator('#ls-narration').innerText(), /update is lost/);
}));

test('export SVG and run JSON, import a run, and reject a bad file', () => withPage('io', 'preset=queue', async (page) => {
  await stepN(page, 9);
  const [svg] = await Promise.all([page.waitForEvent('download'), page.locator('#ls-export-svg').click()]);
  assert.equal(svg.suggestedFilename(), 'lockstep-frame.svg');
  const [json] = await Promise.all([page.waitForEvent('download'), page.locator('#ls-export-json').click()]);
  const run = JSON.parse(await (await json.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()));
  assert.equal(run.scenario.recipe, 'sequential');
  run.scenario.clients = 2;
  await page.setInputFiles('#ls-import', { name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
  await page.waitForFunction(() => document.querySelectorAll('.ls-client').length === 2);
  await page.setInputFiles('#ls-import', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"clients": -1}') });
  await page.locator('#ls-error').waitFor();
  assert.equal(await page.locator('.ls-client').count(), 2, 'the running simulation is kept');
}));

test('embed mode works in sandboxed iframes at 800x500 (public/embed-example.html)', async () => {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  try {
    await page.setViewportSize({ width: 1700, height: 700 });
    await page.goto(`${srv.url}public/embed-example.html`);
    for (const id of ['#embed-herd', '#embed-queue']) {
      const frame = page.frameLocator(id);
      await frame.locator('#ls-stage').waitFor({ timeout: 15000 });
      assert.equal(await frame.locator('.ls-header').count(), 0, 'no header in embed mode');
      await frame.locator('#ls-step').click();
      await frame.locator('#ls-step').click();
      assert.match(await frame.locator('#ls-position').innerText(), /(step|第) 2 /);
    }
    assert.match(await page.frameLocator('#embed-queue').locator('#ls-narration').innerText(), /[\u4e00-\u9fff]/);
    // The stylesheets load inside the opaque-origin frames (they are fetched with CORS).
    assert.equal(await page.frameLocator('#embed-herd').locator('.ls-panel').first().evaluate((e) => getComputedStyle(e).borderTopStyle), 'solid');
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
  await page.setViewportSize({ width: 360, height: 800 });
  await stepN(page, 2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page scrolls sideways by ${overflow}px`);
}));
