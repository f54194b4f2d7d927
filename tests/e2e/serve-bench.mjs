// Compares builds of the served page (`node tests/e2e/serve-bench.mjs DIR…`, each a
// built site: scripts/bundle.mjs's output, or `trunk build`'s): wasm size, navigation → first interactive frame (median of 5 loads),
// Step → painted (median of 100 steps, 10 clients), and a heavy link (100 clients at step 5000). Used to choose what scripts/serve.sh
// builds; the figures are in the README.
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch } from './harness.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launch();
for (const dir of process.argv.slice(2)) {
  const abs = path.resolve(dir);
  const wasm = fs.readdirSync(abs).filter((f) => f.endsWith('.wasm')).map((f) => fs.statSync(path.join(abs, f)).size);
  const srv = await serveDist({ dir: abs });
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage();
    const t0 = Date.now();
    await page.goto(`${srv.url}?preset=queue`);
    await page.locator('#ls-step').waitFor({ timeout: 120000 });
    await page.locator('#ls-step').click();
    await page.waitForFunction(() => !/ 0 \//.test(document.querySelector('#ls-position')?.textContent ?? ' 0 /'));
    loads.push(Date.now() - t0);
    await page.close();
  }
  // A heavy link: 100 clients, opened 5000 steps in (history computed before the first frame).
  const heavy = await browser.newPage();
  const h0 = Date.now();
  await heavy.goto(`${srv.url}?preset=queue&clients=100&at=5000`);
  await heavy.locator('#ls-step').waitFor({ timeout: 300000 });
  const heavyMs = Date.now() - h0;
  await heavy.close();
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`${srv.url}?preset=queue&clients=10`);
  await page.locator('#ls-step').waitFor({ timeout: 120000 });
  const steps = await page.evaluate(async () => {
    const btn = document.querySelector('#ls-step');
    const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
    const out = [];
    for (let i = 0; i < 100; i++) {
      await raf();
      const t = performance.now();
      btn.click();
      await raf();
      out.push(performance.now() - t);
    }
    return out;
  });
  await page.close();
  srv.close();
  console.log(`${dir}: wasm ${wasm.join(' + ')} B; first interactive frame median ${median(loads)} ms (${loads.join(', ')}); step → painted median ${median(steps).toFixed(1)} ms; 100 clients at step 5000: ${heavyMs} ms`);
}
await browser.close();
