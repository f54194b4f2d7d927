// Servers in the browser: a Redis primary and its replica drawn as two boxes with their roles,
// the replication write lost in a split and the key the replica lacks, the old primary down
// after the failover, a write moving along the lane between the servers, and a server's crash,
// its restart and a split made from the server's own popover.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, settle, openServer, withPage as sharedWithPage } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const withPage = (name, path, body) => sharedWithPage(browser, new URL(srv.url).origin, name, `${srv.url}${path}`, body);
const step = (page) => page.locator('#ls-step').click();
const evidence = (page, name) => page.locator(`#ls-stage [data-evidence~="${name}"]`).count();

/** Steps until `done()` holds (at most `max` steps); returns how many it took. */
async function stepUntil(page, done, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await done()) return i;
    await step(page);
    await settle(page);
  }
  assert.fail('never happened');
}

/** Redis with a replica two ticks behind, slow links (so a message is seen in flight), no fault. */
const replicated = Buffer.from(JSON.stringify({
  recipe: 'redis_lease', clients: 2, replica_lag: 2, latency_min: 6, latency_max: 6, start_spread: 0,
  hold_min: 40, hold_max: 40, lease: 3000, fencing: true,
})).toString('base64url');

test('the split loses the replication write: the replica lacks the key, then the old primary is down', () => withPage('servers-split', 'full.html?preset=redis-split', async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  assert.equal(await page.locator('#ls-stage rect.ls-server').count(), 2, 'a box per server');
  await stepUntil(page, async () => (await evidence(page, 'peer-lost')) > 0);
  const texts = await page.locator('#ls-stage text').allTextContents();
  assert.ok(texts.some((t) => /^⇢ SET lock/.test(t)), `the lost write is labelled: ${texts}`);
  assert.ok(texts.some((t) => t.startsWith('Redis 7 · redis-1 · primary')));
  assert.ok(texts.some((t) => t.startsWith('redis-2 · replica')));
  assert.ok(await evidence(page, 'replica-missing') > 0, 'the key the replica lacks is drawn');
  assert.ok(await evidence(page, 'link-cut') > 0, 'the link between the servers is cut');
  await page.locator('#ls-last').click();
  await settle(page);
  assert.ok(await evidence(page, 'server-down') > 0, 'the crashed primary is drawn down');
  const after = await page.locator('#ls-stage text').allTextContents();
  assert.ok(after.some((t) => t.startsWith('Redis 7 · redis-1 · down')), after.join(' | '));
  assert.ok(after.some((t) => t.startsWith('redis-2 · primary')));
}));

test('a replicated write moves along the lane between the servers', () => withPage('servers-lane', `full.html?scenario=${replicated}`, async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  await stepUntil(page, async () => (await page.locator('#ls-stage .ls-msg__op--peer').count()) > 0, 60);
  const dot = async () => {
    const id = await page.locator('#ls-stage .ls-msg__op--peer').first().evaluate((t) => t.previousElementSibling?.dataset.msg ?? null);
    const ys = await page.locator('#ls-stage circle.ls-msg').evaluateAll((els) => els.map((e) => [e.dataset.msg, +e.getAttribute('cy')]));
    return { id, ys };
  };
  const first = await dot();
  const peer = (await page.locator('#ls-stage .ls-msg__op--peer').first().textContent());
  assert.match(peer, /^⇢ SET lock/);
  let moved = false;
  for (let i = 0; i < 6 && !moved; i++) {
    await step(page);
    await settle(page);
    const now = await dot();
    const before = first.ys.find(([m]) => m === first.id);
    const later = now.ys.find(([m]) => m === first.id);
    moved = Boolean(before && later && later[1] > before[1]);
    if (!later) break;
  }
  assert.ok(moved, 'the write went down the lane towards the replica');
  await stepUntil(page, async () => (await page.locator('#ls-stage rect.ls-entry[data-entry="@1:lock"]').count()) > 0, 30);
}));

test('a server is crashed, restarted and split off from its popover', () => withPage('servers-faults', `full.html?scenario=${replicated}`, async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  for (let i = 0; i < 3; i++) await step(page);
  await openServer(page, 1);
  await page.locator('#ls-pop [data-act="crash-server"]').click();
  await settle(page);
  assert.ok(await evidence(page, 'server-down') > 0, 'the crashed replica is drawn down');
  assert.ok((await page.locator('#ls-stage text').allTextContents()).some((t) => t.startsWith('redis-2 · down')));
  await openServer(page, 1);
  await page.locator('#ls-pop [data-act="restart-empty"]').click();
  await settle(page);
  assert.equal(await evidence(page, 'server-down'), 0, 'it is up again');
  await openServer(page, 0);
  await page.locator('#ls-pop [data-act="split"]').click();
  await settle(page);
  assert.ok(await evidence(page, 'link-cut') > 0, 'the split cuts the link');
  await openServer(page, 0);
  await page.locator('#ls-pop [data-act="heal-split"]').click();
  await settle(page);
  assert.equal(await evidence(page, 'link-cut'), 0, 'healed');
  assert.match(page.url(), /cmds=/, 'the injected commands are in the link');
}));
