// Redlock in the browser (full bundle): five master boxes, each client's wires to every master,
// the key frames of the clock-jump, restart and majority presets drawn with their evidence (a
// master's clock off the world's, a key run out by it, two holders, a client short of a
// majority), and a clock jump injected from a master's popover.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, settle, openServer, withPage as sharedWithPage } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const withPage = (name, path, body) => sharedWithPage(browser, new URL(srv.url).origin, name, `${srv.url}${path}`, body);
const evidence = (page, name) => page.locator(`#ls-stage [data-evidence~="${name}"]`).count();
const texts = (page) => page.locator('#ls-stage text').allTextContents();
const keyFrame = async (page, name) => {
  await page.locator(`.ls-mark[data-evidence~="${name}"]`).first().click();
  await settle(page);
};

test('a Redlock link on the lean page opens the full bundle with five masters', () => withPage('redlock-handover', 'index.html?preset=redlock-clock-jump', async (page) => {
  await page.waitForURL(/full\.html\?/, { timeout: 15000 });
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  assert.equal(await page.locator('#ls-stage rect.ls-server').count(), 5, 'a box per master');
  const t = await texts(page);
  for (const n of [1, 2, 3]) assert.ok(t.some((x) => new RegExp(`redis-${n} · master`).test(x)), t.join(' | '));
  for (let i = 0; i < 2; i++) await page.locator('#ls-step').click();
  await settle(page);
  const after = await texts(page);
  assert.ok(after.some((x) => /redis-5 · down/.test(x)), `masters 4 and 5 crash at t=0: ${after.join(' | ')}`);
}));

test('the clock-jump key frames: redis-3 ahead of the world, its key run out, then two holders', () => withPage('redlock-clock', 'full.html?preset=redlock-clock-jump', async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  await keyFrame(page, 'expired');
  assert.ok(await evidence(page, 'clock-jump') > 0, 'the master whose clock jumped is marked');
  assert.ok((await texts(page)).some((x) => /redis-3 · master · clock \+10000 ms/.test(x)), 'its clock is named on its box');
  assert.ok(await evidence(page, 'expired') > 0, 'its key is drawn run out');
  await keyFrame(page, 'two-holders');
  assert.ok(await evidence(page, 'two-holders') > 0, 'two holders on the stage');
  const keys = await page.locator('#ls-stage rect.ls-entry').evaluateAll((els) => els.map((e) => e.dataset.entry));
  assert.ok(keys.filter((k) => /(^|:)lock$/.test(k)).length >= 5, `C1's keys on 1-2 and C2's on 3-5: ${keys}`);
}));

test('the delayed-restart preset holds crashed masters down and shows a client short of a majority', () => withPage('redlock-delayed', 'full.html?preset=redlock-restart-delayed&lang=zh', async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  await keyFrame(page, 'votes');
  assert.ok(await evidence(page, 'votes') > 0, 'the failed attempt is drawn');
  const t = await texts(page);
  assert.ok(t.some((x) => /保持停机直到 t=10201/.test(x)), t.join(' | '));
  assert.ok(t.some((x) => /票/.test(x)), 'the votes are counted on the card');
  assert.equal(await evidence(page, 'two-holders'), 0);
}));

test('a clock jump from a master\'s popover runs out the keys on that master', () => withPage('redlock-popover', 'full.html?preset=redlock-gc-pause', async (page) => {
  await page.locator('#ls-stage rect.ls-server').first().waitFor();
  for (let i = 0; i < 45; i++) await page.locator('#ls-step').click();
  await settle(page);
  await openServer(page, 1);
  const jump = page.locator('#ls-pop [data-act="clock-forward"]');
  assert.match(await jump.innerText(), /\+10000 ms/);
  assert.equal(await page.locator('#ls-pop [data-act="pause-links"]').count(), 0, 'masters have no links to stall');
  await jump.click();
  await settle(page);
  for (let i = 0; i < 2; i++) await page.locator('#ls-step').click();
  await settle(page);
  assert.ok(await evidence(page, 'clock-jump') > 0, 'redis-2 is drawn with its clock ahead');
  const t = await texts(page);
  assert.ok(t.some((x) => /redis-2 · master · clock \+10000 ms/.test(x)), t.join(' | '));
}));
