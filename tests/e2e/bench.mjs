// Browser benchmarks of the release build (prints figures; `npm run bench`):
// navigation → first interactive frame; time to apply a step and paint (median, p95) with 10, 50
// and 200 clients; autoplay frame rate at the fastest speed; gzip size of wasm + JS + CSS.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serveDist, launch, DIST } from './harness.mjs';

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

async function firstFrame(browser, url) {
  const page = await browser.newPage();
  const t0 = Date.now();
  await page.goto(url);
  await page.locator('#ls-step').waitFor();
  await page.locator('#ls-step').click();
  await page.waitForFunction(() => /step 1 /.test(document.querySelector('#ls-position')?.textContent ?? ''));
  const ms = Date.now() - t0;
  await page.close();
  return ms;
}

async function stepTimes(browser, url, steps) {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(url);
  await page.locator('#ls-step').waitFor();
  const times = await page.evaluate(async (n) => {
    const btn = document.querySelector('#ls-step');
    const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
    const apply = []; const painted = [];
    for (let i = 0; i < n; i++) {
      await raf();
      await task(); // start after the previous frame has been painted
      const t = performance.now();
      btn.click();
      await task(); // Leptos applies DOM updates in microtasks; this runs after them
      document.body.getBoundingClientRect(); // force style and layout
      apply.push(performance.now() - t);
      await raf();
      await task(); // after the frame that painted the change
      painted.push(performance.now() - t);
    }
    return { apply, painted };
  }, steps);
  await page.close();
  return times;
}

async function autoplayFps(browser, url) {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(url);
  await page.locator('#ls-play').waitFor();
  await page.selectOption('#ls-speed', '5');
  const fps = await page.evaluate(async () => {
    document.querySelector('#ls-play').click();
    let frames = 0;
    const start = performance.now();
    await new Promise((done) => { const tick = () => { frames++; performance.now() - start < 3000 ? requestAnimationFrame(tick) : done(); }; requestAnimationFrame(tick); });
    document.querySelector('#ls-play').click();
    const steps = Number(document.querySelector('#ls-position').textContent.match(/(\d+) \//)[1]);
    return { fps: frames / 3, stepsPerSecond: steps / 3 };
  });
  await page.close();
  return fps;
}

/** The wasm, JS and CSS a page loads (as named in its HTML), raw and gzip -9. */
function sizes(page) {
  const html = fs.readFileSync(path.join(DIST, page), 'utf8');
  const files = [...new Set([...html.matchAll(/(?:href|src)=\.?\/?([\w.-]+\.(?:js|wasm|css))/g)].map((m) => m[1]))];
  let raw = 0; let gz = 0;
  for (const f of files) {
    const b = fs.readFileSync(path.join(DIST, f));
    raw += b.length; gz += zlib.gzipSync(b, { level: 9 }).length;
  }
  return { raw, gz, files };
}

const srv = await serveDist();
const browser = await launch();
const loads = [];
for (let i = 0; i < 5; i++) loads.push(await firstFrame(browser, `${srv.url}?preset=queue`));
console.log(`first interactive frame: median ${pct(loads, 0.5)} ms (5 loads: ${loads.join(', ')})`);
for (const clients of [10, 50, 200]) {
  const t = await stepTimes(browser, `${srv.url}?preset=queue&clients=${clients}`, 200);
  console.log(`step, ${clients} clients: apply+layout median ${pct(t.apply, 0.5).toFixed(2)} ms, p95 ${pct(t.apply, 0.95).toFixed(2)} ms; until painted median ${pct(t.painted, 0.5).toFixed(2)} ms, p95 ${pct(t.painted, 0.95).toFixed(2)} ms (200 steps)`);
}
for (const [preset, clients] of [['etcd-mutex', 50], ['redis-lease-pause', 50], ['sql-row-lock', 50]]) {
  const t = await stepTimes(browser, `${srv.url}full.html?preset=${preset}&clients=${clients}`, 200);
  console.log(`step, ${preset} (full bundle), ${clients} clients: apply+layout median ${pct(t.apply, 0.5).toFixed(2)} ms, p95 ${pct(t.apply, 0.95).toFixed(2)} ms (200 steps)`);
}
const play = await autoplayFps(browser, `${srv.url}?preset=queue&clients=10`);
console.log(`autoplay at the fastest speed: ${play.fps.toFixed(1)} frames/s, ${play.stepsPerSecond.toFixed(1)} steps/s`);
for (const [label, page] of [['lean first bundle (index.html)', 'index.html'], ['full bundle (full.html)', 'full.html']]) {
  const s = sizes(page);
  console.log(`${label}: ${s.raw} B raw, ${s.gz} B gzip -9 (wasm + JS + CSS: ${s.files.join(', ')})`);
}
await browser.close();
srv.close();
