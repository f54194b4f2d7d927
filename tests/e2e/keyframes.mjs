// Screenshots of every preset's key frames in the built app, for looking at them:
// `npm run screenshots` (after scripts/build.sh) writes screenshots/<preset>-<step>-<size>.png
// at 1440×900 (the page, English) and 800×500 (an embed, Chinese); with ALL_SIZES=1 also at
// 640×400 (an embed, English) and 360×740 (a phone, Chinese). PRESETS=a,b limits the presets.
// The folder is ignored by git.
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch } from './harness.mjs';

const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../screenshots');
fs.mkdirSync(out, { recursive: true });
const srv = await serveDist();
const browser = await launch();
const page = await browser.newPage();
await page.setViewportSize({ width: 1440, height: 900 });
await page.goto(`${srv.url}?preset=queue`);
await page.locator('#ls-stage text').first().waitFor();
const only = process.env.PRESETS?.split(',');
const ids = (await page.locator('#ls-preset option:not([disabled])').evaluateAll((os) => os.map((o) => o.value)))
  .filter((id) => !only || only.includes(id));
const sizes = [[1440, 900, 'lang=en'], [800, 500, 'embed=1&lang=zh']];
if (process.env.ALL_SIZES) sizes.push([640, 400, 'embed=1&lang=en'], [360, 740, 'lang=zh']);
let n = 0;
for (const id of ids) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${srv.url}?preset=${id}`);
  await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
  const steps = await page.locator('.ls-timeline .ls-mark').evaluateAll((els) => els.map((e) => Number(e.dataset.step)));
  const base = page.url().replace(/\?.*/, '');
  for (const step of steps) {
    for (const [w, h, q] of sizes) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${base}?preset=${id}&at=${step}&${q}`);
      await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(out, `${id}-${String(step).padStart(4, '0')}-${w}x${h}.png`) });
      n++;
    }
  }
}
console.log(`${n} screenshots in ${out}`);
await browser.close();
srv.close();
