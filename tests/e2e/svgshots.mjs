// Renders SVG files to PNG in one headless Chromium (for looking at stage pictures made
// natively by `cargo run --example shots`): node tests/e2e/svgshots.mjs OUT_DIR FILE.svg...
import { chromium } from 'playwright-core';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';

const [out, ...files] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
for (const f of files) {
  const svg = readFileSync(f, 'utf8');
  const w = +svg.match(/width="(\d+)"/)[1], h = +svg.match(/height="(\d+)"/)[1];
  await page.setViewportSize({ width: w, height: h });
  await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
  await page.screenshot({ path: `${out}/${basename(f, '.svg')}.png` });
}
await browser.close();
