// Takes a screenshot of the built app: node tests/e2e/screenshot.mjs OUT.png [QUERY] [WIDTHxHEIGHT] [STEPS]
import { serveDist, launch } from './harness.mjs';

const [out = 'screenshot.png', query = '', size = '1400x1000', steps = '0'] = process.argv.slice(2);
const [width, height] = size.split('x').map(Number);
const srv = await serveDist();
const browser = await launch();
const page = await browser.newPage();
page.on('console', (m) => { if (m.type() === 'error') console.error('console:', m.text()); });
page.on('pageerror', (e) => console.error('pageerror:', String(e)));
await page.setViewportSize({ width, height });
await page.goto(srv.url + (query ? `?${query}` : ''));
await page.locator('#ls-stage, .ls-stage').first().waitFor({ timeout: 15000 });
for (let i = 0; i < Number(steps); i++) await page.keyboard.press('ArrowRight');
await page.waitForTimeout(300);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
srv.close();
console.log(`wrote ${out}`);
