// A ZooKeeper ensemble in the browser (the full bundle carries it: the lean first page hands a
// link to an ensemble preset, or three servers picked in its Settings, over to full.html with
// the same scenario): three server boxes with their roles, the leader's crash and the election
// drawn (zk-3 down, zk-2 leads), C1's lock node still on every surviving server; the leader
// crashed from its own popover.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, settle, openServer, openTab, withPage as sharedWithPage } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const withPage = (name, path, body) => sharedWithPage(browser, new URL(srv.url).origin, name, `${srv.url}${path}`, body);
const evidence = (page, name) => page.locator(`#ls-stage [data-evidence~="${name}"]`).count();
const texts = (page) => page.locator('#ls-stage text').allTextContents();

test('the leader dies after the grant: a new leader, and the lock node on every surviving server', () => withPage('ensemble-leader-crash', 'index.html?preset=zk-leader-crash', async (page) => {
  await page.waitForURL(/full\.html\?/, { timeout: 15000 });
  assert.match(page.url(), /preset=zk-leader-crash/, 'the preset travels with the hand-over');
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  assert.equal(await page.locator('#ls-stage rect.ls-server').count(), 3, 'a box per server');
  const first = await texts(page);
  assert.ok(first.some((t) => /zk-3 · leader/.test(t)), first.join(' | '));
  assert.ok(first.some((t) => /zk-1 · follower/.test(t)));
  await page.locator('#ls-last').click();
  await settle(page);
  const end = await texts(page);
  assert.ok(end.some((t) => /zk-3 · down/.test(t)), end.join(' | '));
  assert.ok(end.some((t) => /zk-2 · leader/.test(t)), end.join(' | '));
  assert.ok(await evidence(page, 'server-down') > 0, 'the crashed leader is drawn down');
  assert.ok(await evidence(page, 'leader') > 0, 'the new leader is marked');
}));

test('the election key frame shows the new leader with the holder\'s node', () => withPage('ensemble-elected', 'full.html?preset=zk-leader-crash', async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  const key = page.locator('.ls-mark[data-evidence~="leader"]').first();
  await key.click();
  await settle(page);
  assert.ok(await evidence(page, 'leader') > 0, 'the new leader is marked');
  assert.ok(await evidence(page, 'server-down') > 0, 'the old one is down');
  // C1's node exists on both survivors: server 0's copy is bare, server 1's is @1:.
  const rows = await page.locator('#ls-stage rect.ls-entry').evaluateAll((els) => els.map((e) => e.dataset.entry));
  const locks = rows.filter((r) => /lock-0000000000$/.test(r));
  assert.ok(locks.length >= 2, `C1's node on the survivors: ${rows}`);
}));

test('three servers picked in the lean page\'s Settings open the full bundle, and the leader is crashed from its popover', () => withPage('ensemble-settings', 'index.html?preset=queue&clients=4', async (page) => {
  await page.locator('#ls-stage').waitFor();
  await openTab(page, 'settings');
  await page.locator('#ls-servers').selectOption('3');
  await page.locator('#ls-apply').click();
  await page.waitForURL(/full\.html\?/, { timeout: 15000 });
  await page.locator('#ls-stage').waitFor();
  await settle(page);
  assert.equal(await page.locator('#ls-stage .ls-card').count(), 4, 'the scenario is kept: four clients');
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  assert.equal(await page.locator('#ls-stage rect.ls-server').count(), 3);
  await openServer(page, 2);
  await page.locator('#ls-pop [data-act="crash-server"]').click();
  await settle(page);
  assert.ok(await evidence(page, 'server-down') > 0, 'the leader is drawn down');
}));

test('one click puts the same leader crash on Redis beside the ensemble: two holders there, one here', () => withPage('ensemble-twin', 'full.html?preset=zk-leader-crash', async (page) => {
  await page.locator('#ls-twin').click();
  const cols = page.locator('.ls-compare__col');
  await cols.first().waitFor();
  assert.deepEqual(await cols.evaluateAll((els) => els.map((e) => e.dataset.recipe)), ['curator', 'redis_lease']);
  await page.selectOption('#ls-cmp-speed', '4');
  await page.locator('#ls-cmp-play').click();
  await page.waitForFunction(() => document.querySelector('#ls-cmp-play').textContent === 'Play', null, { timeout: 30000 });
  const flag = (recipe, mon) => page.locator(`[data-recipe="${recipe}"] [data-monitor="${mon}"]`).getAttribute('class');
  assert.match(await flag('redis_lease', 'mon.belief'), /ls-bad/, 'the promoted replica hands the lock out again');
  assert.match(await flag('curator', 'mon.belief'), /ls-notyet/, 'the ensemble keeps one holder');
}));

test('a stale read on a follower whose links stall, then sync: the two reads are key frames drawn on the stage', () => withPage('ensemble-stale-read', 'full.html?preset=zk-stale-read', async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  const entries = () => page.locator('#ls-stage rect.ls-entry').evaluateAll((els) => els.map((e) => e.dataset.entry));
  await page.locator('.ls-mark[data-evidence~="stale-read"]').first().click();
  await settle(page);
  assert.ok(await evidence(page, 'stale-read') > 0, 'C2\'s card says its read is stale');
  assert.ok(await evidence(page, 'links-paused') > 0, 'zk-2\'s links are drawn stalled');
  const stale = await texts(page);
  assert.ok(stale.some((t) => /^stale/.test(t)), `C2's card says stale: ${stale.join(' | ')}`);
  assert.ok(stale.includes('stalled'), 'the stalled links are named on the lane');
  assert.ok(stale.some((t) => /zk-2 .* applied 0x100000005/.test(t)) && stale.some((t) => /zk-3 .* leader .* applied 0x100000006/.test(t)),
    'zk-2 has applied one transaction less than the leader');
  let rows = await entries();
  assert.ok(rows.includes('/lock') && rows.includes('@2:/lock'), `zk-1 and the leader have the lock: ${rows}`);
  assert.ok(!rows.includes('@1:/lock'), `zk-2 has not applied it: ${rows}`);
  await page.locator('.ls-mark[data-evidence~="fresh-read"]').first().click();
  await settle(page);
  assert.ok(await evidence(page, 'fresh-read') > 0, 'the read after sync agrees with the leader');
  assert.equal(await evidence(page, 'stale-read'), 0);
  rows = await entries();
  assert.ok(rows.includes('@1:/lock'), `zk-2 caught up: ${rows}`);
  // C2 is an observer: its popover reads, it does not lock.
  await page.locator('#ls-stage .ls-card').nth(1).click();
  await page.locator('#ls-pop [data-act="sync-read"]').waitFor();
  assert.equal(await page.locator('#ls-pop [data-act="acquire"]').count(), 0);
  await page.locator('#ls-pop [data-act="read"]').click();
  await settle(page);
  // zk-2's links stalled again from its own popover.
  await openServer(page, 1);
  await page.locator('#ls-pop [data-act="pause-links"]').click();
  await settle(page);
  assert.ok(await evidence(page, 'links-paused') > 0, 'the stall injected from the page is drawn');
}));

test('the leader counts the acknowledgements: ACK 1/3 while a proposal waits, ACK 2/3 when it commits', () => withPage('ensemble-ack', 'full.html?preset=zk-leader-crash&at=0&lang=en', async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  const seen = [];
  for (let i = 0; i < 60; i++) {
    await page.locator('#ls-step').click();
    const line = (await texts(page)).find((t) => /· leader ·/.test(t)) ?? '';
    if (line && seen.at(-1) !== line) seen.push(line);
    if (/ACK 2\/3 → committed/.test(line)) break;
  }
  // (Where the box is narrow the line is cut at a separator: "· commit at 2" may go first.)
  const open = seen.findIndex((t) => /0x[0-9a-f]+ ACK 1\/3/.test(t));
  const done = seen.findIndex((t) => /ACK 2\/3 → committed/.test(t));
  assert.ok(open >= 0 && done > open, `the leader's lines: ${seen.join(' | ')}`);
  assert.match(await page.locator('#ls-caption').innerText(), /majority|COMMIT/);
}));
