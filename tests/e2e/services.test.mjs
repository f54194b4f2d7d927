// The other lock services in the browser: the lean first page hands over to the full bundle,
// the Redis/etcd/SQL presets run with their entries drawn, compare mode steps several services
// in lockstep, and the requirements matrix is computed and opens its runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, watchedPage, screenshotOnFailure, withPage as sharedWithPage, openTab } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const withPage = (name, path, body) => sharedWithPage(browser, new URL(srv.url).origin, name, `${srv.url}${path}`, body);

const stepN = async (page, n) => { for (let i = 0; i < n; i++) await page.locator('#ls-step').click(); };

test('a Redis preset link on the lean page opens the full bundle and runs', () => withPage('handover', '?preset=redis-lease-pause', async (page) => {
  await page.waitForURL(/full\.html\?/, { timeout: 15000 });
  await page.locator('#ls-stage').waitFor();
  assert.match(await page.locator('#ls-lesson').innerText(), /SET lock token NX PX 50/);
  await page.locator('#ls-last').click();
  await openTab(page, 'monitors');
  await page.locator('.ls-monitors [data-monitor="lost_update"]').waitFor();
  assert.match(await page.locator('.ls-monitors').innerText(), /lost an update/);
  assert.ok(await page.locator('#ls-stage [data-evidence~="ledger-lost"]').count() > 0, 'the lost update is on the stage');
  assert.match(page.url(), /preset=redis-lease-pause/);
}));

test('picking an etcd preset from the lean picker hands over and draws keys with revisions', () => withPage('etcd', '', async (page) => {
  await page.selectOption('#ls-preset', 'etcd-mutex');
  await page.waitForURL(/full\.html\?/, { timeout: 15000 });
  await page.locator('#ls-stage').waitFor();
  await stepN(page, 16);
  const keys = await page.locator('#ls-stage rect.ls-entry[data-entry^="lock/"]').evaluateAll((els) => els.map((e) => e.dataset.entry));
  assert.equal(keys.length, 4, `four lock keys: ${keys}`);
  const tip = await page.locator(`#ls-stage rect.ls-entry[data-entry="${keys[0]}"] title`).textContent();
  assert.match(tip, /create_revision 2 · mod_revision 2 · version 1 · lease [0-9a-f]+ · expires in \d+ ms/);
  assert.match(await page.locator('#ls-stage .ls-service__title').first().textContent(), /etcd 3\.4 · revision \d+/);
}));

test('compare mode steps ZooKeeper, Redis, etcd and SQL in lockstep and shows where each breaks', () => withPage('compare', 'full.html?preset=redis-lease-pause&recipe=curator', async (page) => {
  await page.locator('#ls-more').click();
  await page.locator('#ls-compare-open').click();
  const cols = page.locator('.ls-compare__col');
  await cols.first().waitFor();
  assert.deepEqual(await cols.evaluateAll((els) => els.map((e) => e.dataset.recipe)), ['curator', 'redis_lease', 'etcd_mutex', 'sql_row_lock']);
  assert.equal(await page.locator('.ls-compare__col svg.ls-compare__stage .ls-card').count() > 0, true, 'each column draws its own stage');
  assert.equal(await page.locator('.ls-compare__col svg.ls-compare__stage').count(), 4);
  // Before anything has happened, no verdict mark can be read as "it happened".
  const marks = await page.locator('.ls-compare__monitors li').allInnerTexts();
  assert.equal(marks.length, 16);
  for (const m of marks) assert.match(m, /^○ not yet: /, `an unseen failure says "not yet": ${m}`);
  assert.equal(await page.locator('.ls-compare__monitors li.ls-good').count(), 0);
  for (let i = 0; i < 5; i++) await page.locator('#ls-cmp-step').click();
  const t1 = Number((await page.locator('#ls-cmp-time').innerText()).match(/\d+/)[0]);
  assert.ok(t1 > 0);
  await page.locator('#ls-cmp-back').click();
  const t0 = Number((await page.locator('#ls-cmp-time').innerText()).match(/\d+/)[0]);
  assert.ok(t0 < t1, `back moved the shared clock (${t0} < ${t1})`);
  await page.selectOption('#ls-cmp-speed', '4');
  await page.locator('#ls-cmp-play').click();
  // Autoplay stops by itself when every column has finished.
  await page.waitForFunction(() => document.querySelector('#ls-cmp-play').textContent === 'Play', null, { timeout: 20000 });
  assert.ok(Number((await page.locator('#ls-cmp-time').innerText()).match(/\d+/)[0]) > 100);
  const flag = (recipe, mon) => page.locator(`[data-recipe="${recipe}"] [data-monitor="${mon}"]`).getAttribute('class');
  assert.match(await flag('redis_lease', 'mon.lost_update'), /ls-bad/);
  assert.match(await flag('curator', 'mon.belief'), /ls-bad/);
  assert.match(await flag('curator', 'mon.lost_update'), /ls-notyet/);
  assert.match(await flag('sql_row_lock', 'mon.belief'), /ls-notyet/);
  // One clock: every column's stage shows the shared time.
  const shared = (await page.locator('#ls-cmp-time').innerText()).match(/\d+/)[0];
  const stageTimes = await page.locator('.ls-compare__col svg.ls-compare__stage').evaluateAll((els) => els.map((e) => e.querySelector('.ls-clock')?.textContent.match(/t = (\d+)/)?.[1] ?? null));
  assert.equal(stageTimes.length, 4);
  for (const t of stageTimes) assert.equal(t, shared, `a column's stage shows t=${t}, the shared clock ${shared}`);
  assert.match(page.url(), /compare=curator%2Credis_lease%2Cetcd_mutex%2Csql_row_lock/);
  await page.selectOption('[data-column="3"]', '');
  // The columns are computed after a painted "computing…" line (App::busy).
  await page.waitForFunction(() => document.querySelectorAll('.ls-compare__col').length === 3, null, { timeout: 10000 });
  assert.equal(await cols.count(), 3);
}));

test('compare mode on gc-pause: every leased lock breaks, the row lock holds (the pause outlasts every lease)', () => withPage('compare-gc', 'full.html?preset=gc-pause', async (page) => {
  await page.locator('#ls-more').click();
  await page.locator('#ls-compare-open').click();
  const cols = page.locator('.ls-compare__col');
  await cols.first().waitFor();
  assert.deepEqual(await cols.evaluateAll((els) => els.map((e) => e.dataset.recipe)), ['curator', 'redis_lease', 'etcd_mutex', 'sql_row_lock']);
  await page.selectOption('#ls-cmp-speed', '4');
  await page.locator('#ls-cmp-play').click();
  await page.waitForFunction(() => document.querySelector('#ls-cmp-play').textContent === 'Play', null, { timeout: 30000 });
  const flag = (recipe, mon) => page.locator(`[data-recipe="${recipe}"] [data-monitor="${mon}"]`).getAttribute('class');
  for (const r of ['curator', 'redis_lease', 'etcd_mutex']) {
    assert.match(await flag(r, 'mon.belief'), /ls-bad/, `${r}: two believers once the pause outlasts its lease`);
    assert.match(await flag(r, 'mon.lost_update'), /ls-bad/, `${r}: without fencing an update is lost`);
  }
  assert.match(await flag('sql_row_lock', 'mon.belief'), /ls-notyet/, 'FOR UPDATE holds the row through the pause');
}));

test('the requirements matrix is computed and a cell opens its run', () => withPage('matrix', '', async (page) => {
  await page.locator('#ls-more').click();
  await page.locator('#ls-matrix-open').click();
  await page.waitForURL(/full\.html\?.*matrix=1/, { timeout: 15000 });
  const table = page.locator('#ls-matrix table');
  await table.waitFor({ timeout: 20000 });
  const cell = (recipe, probe) => page.locator(`#ls-matrix tr[data-recipe="${recipe}"] td[data-probe="${probe}"]`);
  assert.match(await cell('redis_lease', 'mx.pause').getAttribute('class'), /ls-mx--unsafe/);
  assert.match(await cell('etcd_mutex', 'mx.pause').getAttribute('class'), /ls-mx--fenced/);
  assert.match(await cell('sql_insert', 'mx.crash').getAttribute('class'), /ls-mx--stuck/);
  assert.match(await cell('sql_row_lock', 'mx.failover').getAttribute('class'), /ls-mx--unsafe/);
  assert.match(await page.locator('#ls-matrix tr[data-recipe="sql_row_lock"]').innerText(), /blocks/);
  const none = await page.locator('#ls-matrix tr[data-recipe="none"]').innerText();
  assert.match(none, /never waits/);
  assert.doesNotMatch(none, /blocks|yes/, `the no-lock row claims nothing it does not do: ${none}`);
  await cell('sql_insert', 'mx.crash').locator('button').click();
  await page.locator('#ls-matrix').waitFor({ state: 'detached' });
  await page.locator('#ls-last').click();
  await openTab(page, 'monitors');
  await page.locator('.ls-monitors [data-monitor="stuck"]').waitFor();
  assert.match(await page.locator('.ls-monitors').innerText(), /no progress for longer than all the run's timers together/);
}));

// Its size (the 300 KB gzip target) is measured by `npm run bench`.
test('the lean first bundle has no Redis, etcd or SQL code', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { DIST } = await import('./harness.mjs');
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const assets = [...html.matchAll(/(?:href|src)="?\.?\/?([\w.-]+\.(?:js|wasm|css))/g)].map((m) => m[1]);
  const wasm = assets.find((f) => f.endsWith('.wasm'));
  const text = fs.readFileSync(path.join(DIST, wasm)).toString('latin1');
  assert.ok(!text.includes('EXECABORT') && !text.includes('duplicate key given in txn request'), 'service engines stayed out of the lean bundle');
});

test('a sandboxed embed of another service hands over inside the frame, styled, without errors', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { DIST } = await import('./harness.mjs');
  const host = path.join(DIST, 'e2e-embed-host.html');
  fs.writeFileSync(host, '<!doctype html><title>host</title><link rel="icon" href="data:,"><iframe src="./?preset=etcd-mutex&embed=1" width="800" height="500" sandbox="allow-scripts"></iframe>');
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  try {
    await page.goto(`${srv.url}e2e-embed-host.html`);
    const frame = () => page.frames().find((f) => f !== page.mainFrame());
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && !/full\.html/.test(frame()?.url() ?? ''); i++) await page.waitForTimeout(100);
    const f = frame();
    assert.match(f.url(), /full\.html\?preset=etcd-mutex/);
    await f.locator('#ls-stage text').first().waitFor({ timeout: 15000 });
    assert.match(await f.locator('.ls-service__title').first().textContent(), /etcd/);
    const styled = await f.evaluate(() => getComputedStyle(document.querySelector('.ls-stage-host')).borderTopStyle);
    assert.equal(styled, 'solid', 'the stylesheet loaded inside the opaque-origin frame');
    assert.deepEqual(problems.consoleErrors, [], 'console errors');
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) {
    await screenshotOnFailure(page, 'embed-handover');
    throw e;
  } finally {
    await page.close();
    fs.unlinkSync(host);
  }
});
