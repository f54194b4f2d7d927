import path from 'node:path';
import { serveDist, launch } from './harness.mjs';
const srv = await serveDist();
const browser = await launch();
const page = await browser.newPage();
const shots = [
  ['gc-pause-fenced-end', 'preset=gc-pause-fenced&at=100000', 1440, 900],
  ['gc-pause-end-embed', 'preset=gc-pause&at=100000&embed=1&lang=zh', 800, 500],
  ['ids-locked-end', 'preset=ids-locked&at=100000', 1440, 900],
  ['redis-failover-after', 'preset=redis-failover&at=100000', 1440, 900],
  ['redis-lease-pause-end', 'preset=redis-lease-pause&at=100000&embed=1', 800, 500],
  ['sql-crash-mid', 'preset=sql-crash&at=60', 1440, 900],
  ['herd-start', 'preset=herd', 800, 500],
];
for (const [name, q, w, h] of shots) {
  await page.setViewportSize({ width: w, height: h });
  const file = /redis|sql/.test(q) ? 'full.html' : '';
  await page.goto(`${srv.url}${file}?${q}`);
  await page.locator('#ls-stage text').first().waitFor({ timeout: 30000 });
  await page.waitForTimeout(400);
  await page.screenshot({ path: `/tmp/shots/${name}.png` });
}
// Compare on gc-pause, played to the end.
await page.setViewportSize({ width: 1440, height: 900 });
await page.goto(`${srv.url}full.html?preset=gc-pause`);
await page.locator('#ls-more').click();
await page.locator('#ls-compare-open').click();
await page.locator('.ls-compare__col').first().waitFor();
await page.screenshot({ path: '/tmp/shots/compare-gc-start.png', fullPage: true });
await page.selectOption('#ls-cmp-speed', '4');
await page.locator('#ls-cmp-play').click();
await page.waitForFunction(() => document.querySelector('#ls-cmp-play').textContent === 'Play', null, { timeout: 60000 });
await page.screenshot({ path: '/tmp/shots/compare-gc-end.png', fullPage: true });
await browser.close();
srv.close();
console.log('done');
