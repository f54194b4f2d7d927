// kazoo's own behaviour on the stage (issue 51): when a waiter's connection breaks, kazoo 2.11
// calls every watcher with a NONE event and forgets it (and never sets it again on reconnect:
// recorded in tests/recipes/traces/kazoo_waiter_disconnected.json). The waiter's card says so
// while it is true, the step's sentence says it, and the reconnect brings no notification.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, withPage as open, position } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const name = (page, id) => page.evaluate((id) => document.querySelector(`#ls-stage [data-focus="${id}"]`)?.getAttribute('aria-label') ?? '', id);
const stageText = (page) => page.evaluate(() => [...document.querySelectorAll('#ls-stage text')].map((t) => t.textContent).join(' | '));

test('a kazoo waiter cut off: its watcher gets NONE and is forgotten, shown on its card until it reconnects', () => open(browser, new URL(srv.url).origin, 'kazoo-none', `${srv.url}?preset=kazoo-queue&lang=en`, async (page) => {
  await page.locator('#ls-stage [data-focus="client:1"]').waitFor({ state: 'attached', timeout: 20000 });
  const step = async (until, what, max = 300) => {
    for (let i = 0; i < max; i += 1) {
      if (await until()) return;
      await page.locator('#ls-step').click();
    }
    throw new Error(`never: ${what}`);
  };
  await step(async () => /watches/.test(await name(page, 'client:1')), 'C2 watches its predecessor');
  // Cut C2 off from its server (its popover's Partition).
  const cut = async () => {
    await page.locator('#ls-stage [data-focus="client:1"]').click();
    await page.locator('#ls-pop [data-act="partition"]').click();
  };
  await cut();
  await step(async () => /NONE/.test(await name(page, 'client:1')), 'kazoo spends the watcher');
  const at = (await position(page)).step;
  const caption = await page.locator('#ls-caption').innerText();
  console.log(`#${at}: C2 reads "${await name(page, 'client:1')}"; caption: ${caption.replace(/\s+/g, ' ')}`);
  assert.match(await stageText(page), /NONE: watch (on \S+ )?forgotten/, 'the card says the watch is spent');
  assert.match(caption, /NONE event/, 'the step says kazoo called the watcher with NONE');
  await page.screenshot({ path: 'tests/e2e/artifacts/kazoo-none.png' });
  // Healed, it reconnects into its session and the card no longer says NONE.
  await cut();
  await step(async () => /, connected/.test(await name(page, 'client:1')), 'C2 reconnected');
  assert.doesNotMatch(await name(page, 'client:1'), /NONE/);
}));
