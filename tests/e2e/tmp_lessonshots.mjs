import { serveDist, launch } from './harness.mjs';
const srv = await serveDist(); const browser = await launch();
const L = { lockstep_lesson: 1, id: 'shot', title: { en: 'Watch the herd', zh: '看羊群' }, preset: 'herd',
  stops: [{ step: 9, title: { en: 'Everyone waits', zh: '大家都在等' }, text: { en: 'Every waiter has set its watch on /lock: one release will wake them all.', zh: '每个等待者都在 /lock 上设置了监视：一次释放会唤醒所有人。' } }] };
const q = Buffer.from(JSON.stringify(L)).toString('base64url');
for (const [name, url, w, h] of [
  ['embed-en', `index.html?lesson=${q}&at=9&embed=1&lang=en`, 800, 500],
  ['embed-zh', `index.html?lesson=${q}&at=9&embed=1&lang=zh`, 800, 500],
  ['page', `index.html?lesson=${q}&at=9&lang=en`, 1440, 900],
]) {
  const page = await browser.newPage(); await page.setViewportSize({ width: w, height: h });
  await page.goto(srv.url + url); await page.locator('#ls-stage text').first().waitFor(); await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/shot-${name}.png` }); await page.close();
}
const page = await browser.newPage(); await page.setViewportSize({ width: 1440, height: 900 });
await page.goto(srv.url + 'full.html?preset=herd&at=9&lang=en'); await page.locator('#ls-stage text').first().waitFor();
await page.locator('#ls-more').click(); await page.locator('#ls-lesson-open').click();
await page.locator('#ls-lesson-add').click();
await page.locator('#ls-lesson-stop0-title-en').fill('Everyone waits');
await page.screenshot({ path: '/tmp/shot-editor.png' });
await browser.close(); srv.close();
