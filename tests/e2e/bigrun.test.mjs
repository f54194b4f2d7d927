// A link into a big run (200 clients, far into the run) shows its stage at once, says what it is
// computing while the rest is computed in slices, answers clicks meanwhile, and then shows the
// step the link asked for.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, watchedPage, screenshotOnFailure, position } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

test('a big link opens at once, shows its progress, stays responsive and reaches its step', async () => {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${srv.url}full.html?preset=gc-pause-fenced&clients=200&at=3000`);
    await page.waitForFunction(() => document.documentElement.getAttribute('data-started'), null, { timeout: 30000 });
    const progress = page.locator('#ls-computing');
    await progress.waitFor({ timeout: 10000 });
    assert.match(await progress.innerText(), /3000/, 'it says which step it computes toward');
    await page.waitForTimeout(400);
    assert.match(page.url(), /[?&]at=3000(&|$)/, 'the address keeps the step while it is computed');
    // The page answers while it computes: the log opens before the computing is done.
    await page.locator('#ls-tab-log').click();
    await page.locator('#ls-drawer').waitFor({ timeout: 2000 });
    assert.equal(await progress.count(), 1, 'still computing when the click was answered');
    await progress.waitFor({ state: 'detached', timeout: 120000 });
    assert.equal((await position(page)).step, 3000);
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) {
    await screenshotOnFailure(page, 'bigrun');
    throw e;
  } finally {
    await page.close();
  }
});
