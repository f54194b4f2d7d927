// Browser benchmarks of the release build (prints figures; `npm run bench`):
// navigation → first interactive frame; time from Step to the first painted frame of its
// transition (median, p95) with 10, 50 and 200 clients (target: median at 50 clients ≤ 6 ms);
// autoplay frames/s with moving messages at 20 clients (aim ≥ 55); gzip size of wasm + JS +
// CSS against each bundle's ceiling and goal (tests/e2e/sizes.mjs).
import { serveDist, launch, clientAct } from './harness.mjs';
import { BUDGETS, sizes } from './sizes.mjs';

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

async function firstFrame(browser, url) {
  const page = await browser.newPage();
  const t0 = Date.now();
  await page.goto(url);
  await page.locator('#ls-step').waitFor();
  await page.locator('#ls-step').click();
  await page.waitForFunction(() => !/ 0 \//.test(document.querySelector('#ls-position')?.textContent ?? ' 0 /'));
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
  await page.selectOption('#ls-speed', '1');
  const fps = await page.evaluate(async () => {
    const play = () => { if (document.querySelector('#ls-play').getAttribute('aria-pressed') !== 'true') document.querySelector('#ls-play').click(); };
    const before = Number(document.querySelector('#ls-position').textContent.match(/(\d+) \//)[1]);
    play();
    let frames = 0; let long = 0; let last = performance.now(); let moving = 0;
    const start = performance.now();
    await new Promise((done) => {
      const tick = () => {
        const now = performance.now();
        frames++; if (now - last > 25) long++; last = now;
        if (document.querySelector('#ls-stage circle[data-msg]')) moving++;
        play(); // playback pauses on key frames: carry on
        now - start < 5000 ? requestAnimationFrame(tick) : done();
      };
      requestAnimationFrame(tick);
    });
    document.querySelector('#ls-play').click();
    const steps = Number(document.querySelector('#ls-position').textContent.match(/(\d+) \//)[1]) - before;
    return { fps: frames / 5, long, moving: moving / frames, stepsPerSecond: steps / 5 };
  });
  await page.close();
  return fps;
}

/** The wasm, JS and CSS a page loads (as named in its HTML), raw and gzip -9. */
/** The longest main-thread tasks (PerformanceObserver 'longtask') while a big link opens and
 * is computed up to its step, 20 steps, a client crash and what follows it. */
async function mainThread(browser, url) {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); })
      .observe({ type: 'longtask', buffered: true });
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.getAttribute('data-started'), null, { timeout: 120000 });
  const shown = Date.now() - t0;
  await page.waitForTimeout(300);
  await page.waitForFunction(() => !document.querySelector('#ls-computing'), null, { timeout: 300000, polling: 200 });
  const reached = Date.now() - t0;
  for (let i = 0; i < 20; i++) { await page.locator('#ls-step').click(); await page.waitForTimeout(30); }
  await clientAct(page, 0, 'crash');
  await page.waitForTimeout(4000);
  const long = await page.evaluate(() => window.__long);
  await page.close();
  return { shown, reached, long };
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
for (const [preset, clients] of [['etcd-mutex', 50], ['redis-lease-pause', 50], ['sql-row-lock', 50], ['redis-split', 50]]) {
  const t = await stepTimes(browser, `${srv.url}full.html?preset=${preset}&clients=${clients}`, 200);
  console.log(`step, ${preset} (full bundle), ${clients} clients: apply+layout median ${pct(t.apply, 0.5).toFixed(2)} ms, p95 ${pct(t.apply, 0.95).toFixed(2)} ms (200 steps)`);
}
// A five-server ZooKeeper ensemble under 50 Curator clients (the full bundle carries it; the
// lean page hands such a link over).
const five = Buffer.from(JSON.stringify({ recipe: 'curator', clients: 50, ensemble: 5, rounds: 3 })).toString('base64url');
{
  const t = await stepTimes(browser, `${srv.url}full.html?scenario=${five}`, 200);
  console.log(`step, curator on 5 ZooKeeper servers (full bundle), 50 clients: apply+layout median ${pct(t.apply, 0.5).toFixed(2)} ms, p95 ${pct(t.apply, 0.95).toFixed(2)} ms (200 steps; target median ≤ 6 ms)`);
}
// Redlock on five masters: every client has a wire to every master (20 clients: 100 wires).
const redlock = Buffer.from(JSON.stringify({ recipe: 'redlock', clients: 20, rounds: 3, lease: 2000 })).toString('base64url');
{
  const t = await stepTimes(browser, `${srv.url}full.html?scenario=${redlock}`, 200);
  console.log(`step, node-redlock on 5 Redis masters (full bundle), 20 clients: apply+layout median ${pct(t.apply, 0.5).toFixed(2)} ms, p95 ${pct(t.apply, 0.95).toFixed(2)} ms (200 steps)`);
}
{
  const q = 'full.html?preset=gc-pause-fenced&clients=200&at=10000';
  const m = await mainThread(browser, `${srv.url}${q}`);
  const over = m.long.filter((x) => x > 500).length;
  console.log(`main thread, ${q}: stage shown at ${m.shown} ms, step 10000 reached at ${m.reached} ms (computed in slices, progress shown); longest task ${Math.max(0, ...m.long)} ms, ${m.long.length} tasks over 50 ms, ${over} over 500 ms (load, 20 steps, a crash)`);
}
{
  // Past the end of a wedged run every press computes heartbeats; press 20 once took 100x press 1.
  const t = await stepTimes(browser, `${srv.url}?preset=lost-wakeup&at=192`, 20);
  console.log(`step past the end of a wedged run (lost-wakeup, at=192): press 1 ${t.apply[0].toFixed(1)} ms, press 20 ${t.apply[19].toFixed(1)} ms, slowest ${Math.max(...t.apply).toFixed(1)} ms`);
}
const play = await autoplayFps(browser, `${srv.url}?preset=queue&clients=20`);
console.log(`autoplay, 20 clients at ×1: ${play.fps.toFixed(1)} frames/s (aim ≥ 55), ${play.long} frames over 25 ms, messages on stage in ${Math.round(play.moving * 100)}% of frames, ${play.stepsPerSecond.toFixed(1)} steps/s`);
for (const [page, b] of Object.entries(BUDGETS)) {
  const s = sizes(page);
  const goal = b.goal === null ? 'no goal of its own' : `goal ${b.goal} B (${s.gz > b.goal ? `over the goal by ${s.gz - b.goal} B` : 'goal met'})`;
  console.log(`${b.label}: ${s.raw} B raw, ${s.gz} B gzip -9 — ceiling ${b.ceiling} B, ${goal} (wasm + JS + CSS: ${s.files.join(', ')})`);
}
await browser.close();
srv.close();
