// The app shell mounts in real headless Chromium, from the root and from a sub-path, with no
// console errors and no request to another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, watchedPage, screenshotOnFailure } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

async function check(url, name) {
  const { page, problems } = await watchedPage(browser, new URL(url).origin);
  try {
    await page.goto(url);
    await page.locator('.ls-title').waitFor({ timeout: 15000 });
    assert.equal(await page.locator('.ls-title').innerText(), 'Lockstep');
    // The simulator runs in wasm: stepping creates the first lock node.
    for (let i = 0; i < 20; i++) await page.locator('#ls-step').click();
    await page.locator('#ls-stage [data-entry="/locks/lock-0000000000"]').first().waitFor();
    const bg = await page.evaluate(() => getComputedStyle(document.body).margin);
    assert.equal(bg, '0px', 'styles from styles/ are applied');
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } catch (e) {
    await screenshotOnFailure(page, name);
    throw e;
  } finally {
    await page.close();
  }
}

test('the app mounts from the site root', () => check(srv.url, 'smoke-root'));
test('the app mounts from a sub-path (relative asset paths)', () => check(srv.subUrl, 'smoke-subpath'));
test('the favicon from public/ is linked and served', async () => {
  const html = await (await fetch(srv.url)).text();
  const tag = (html.match(/<link[^>]*>/g) ?? []).find((l) => /rel="?icon\b/.test(l)) ?? '';
  const href = tag.match(/href="?([^"\s>]+)/)?.[1];
  assert.ok(href, 'index.html links an icon');
  const res = await fetch(new URL(href, srv.url));
  assert.equal(res.status, 200);
  assert.match(await res.text(), /<svg/);
});
