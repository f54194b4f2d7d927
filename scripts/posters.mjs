// Posters (issue 22): the first paint of the lean page and of its embed links, written into the
// built site so that a reader sees the drawing before the WebAssembly has arrived.
//
//   node scripts/posters.mjs [DIST]        (scripts/build.sh runs it after bundling)
//
// For each page (index.html: its own presets; full.html: every preset): the bare address (a
// first visit) at common desktop sizes, and an embed link of every key frame and of every
// course chapter (800×500 and 640×400), in English and Chinese. It opens the built page in headless Chromium, waits for the
// app's first paint and stores the app's markup as DIST/posters/[full/]<mode>-<key>-<lang>-
// <W>x<H>.html (the live DOM as the app drew it, not a re-rendering: the poster is the first
// paint by construction). The list goes into the page's loader (boot/poster.js, `var P = {}`),
// which fetches the one a link asks for and shows it until the live stage draws
// (ui/browser.rs drop_poster takes it away).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDist } from '../tests/e2e/harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
const PAGE_SIZES = ['1440x900', '1920x1080', '1536x864', '1366x768', '1280x720'];
const EMBED_SIZES = ['800x500', '640x400'];
const LANGS = { en: 'en-US', zh: 'zh-CN' };
const TABS = Number(process.env.POSTER_TABS ?? 4);

/** In the page: the app's markup once its first paint has settled, ready to be a poster. */
function snapshot() {
  const app = document.querySelector('.ls-app');
  const copy = app.cloneNode(true);
  const live = app.querySelectorAll('select, input, textarea, *');
  const dead = copy.querySelectorAll('select, input, textarea, *');
  // Form state and scroll positions live in properties, not in the markup: write them down.
  live.forEach((el, i) => {
    const d = dead[i];
    if (el instanceof HTMLSelectElement) {
      [...d.options].forEach((o, j) => o.toggleAttribute('selected', j === el.selectedIndex));
    } else if (el instanceof HTMLInputElement) {
      if (el.type === 'checkbox' || el.type === 'radio') d.toggleAttribute('checked', el.checked);
      else d.setAttribute('value', el.value);
    } else if (el instanceof HTMLTextAreaElement) {
      d.textContent = el.value;
    }
    if (el.scrollTop || el.scrollLeft) d.setAttribute('data-poster-scroll', `${el.scrollLeft},${el.scrollTop}`);
  });
  // The live app mounts under the poster: no ids or form names that could be taken for its own
  // (an id is kept as data-poster-id: boot/poster.js presses the live button a reader pressed).
  copy.querySelectorAll('[id]').forEach((e) => { e.setAttribute('data-poster-id', e.id); e.removeAttribute('id'); });
  copy.querySelectorAll('[name]').forEach((e) => e.removeAttribute('name'));
  copy.querySelectorAll('script').forEach((e) => e.remove());
  // The app writes absolute links (an embed's "open" link) with the address it was served from,
  // here this script's own server. Relative, they lead where the live page's do once deployed:
  // this page with another query (`?…`), or another page beside it (the site is served at /).
  const here = location.origin + location.pathname;
  copy.querySelectorAll('a[href]').forEach((a) => {
    const href = a.getAttribute('href');
    if (href.startsWith(`${here}?`)) a.setAttribute('href', href.slice(here.length));
    else if (href.startsWith(`${location.origin}/`)) a.setAttribute('href', href.slice(location.origin.length + 1));
  });
  copy.querySelectorAll('button, a[href], input, select, textarea, summary').forEach((e) => e.setAttribute('tabindex', '-1'));
  copy.setAttribute('aria-hidden', 'true');
  // The query the live page has written for this frame (a step poster's loader puts it in the
  // address bar, so that the app mounts at the frame the poster shows).
  copy.setAttribute('data-poster-query', location.search);
  return copy.outerHTML;
}

/** Waits until the stage has drawn and the app's markup stays the same for three frames. */
async function settled(page) {
  await page.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
  await page.evaluate(() => new Promise((done) => {
    let last = '';
    let same = 0;
    const tick = () => {
      const now = document.querySelector('.ls-app').innerHTML;
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 3) done(); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
}

/** Every poster of `page` (index.html, full.html): [mode, key, query]. */
async function targets(context, url, page) {
  const tab = await context.newPage();
  await tab.setViewportSize({ width: 1440, height: 900 });
  await tab.goto(`${url}${page}?preset=queue`);
  await tab.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
  // The lean page serves its own presets (the first options); the rest (an optgroup) hand
  // over to full.html, which serves them all.
  const which = page === 'index.html' ? '#ls-preset > option:not([disabled])' : '#ls-preset option:not([disabled])';
  const ids = await tab.locator(which).evaluateAll((os) => os.map((o) => o.value));
  const out = [['p', 'home', '']];
  for (const id of ids) {
    await tab.goto(`${url}${page}?preset=${id}`);
    await tab.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
    const steps = await tab.locator('.ls-timeline .ls-mark').evaluateAll((els) => els.map((e) => Number(e.dataset.step)));
    for (const s of new Set(steps)) out.push(['e', `${id}.${s}`, `?preset=${id}&at=${s}&embed=1`]);
  }
  // The course's chapters, embedded as the Embed button links them (at their start).
  await tab.goto(`${url}${page}?learn=`);
  await tab.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
  const course = tab.locator('#ls-tab-course');
  if ((await course.getAttribute('aria-selected')) !== 'true') await course.click();
  await tab.locator('button[data-chapter]').first().waitFor({ timeout: 60000 });
  const chapters = await tab.locator('button[data-chapter]').evaluateAll((els) => els.map((e) => e.dataset.chapter));
  for (const ch of chapters) {
    await tab.goto(`${url}${page}?learn=${ch}`);
    await tab.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
    const handed = page === 'index.html' && new URL(tab.url()).pathname.endsWith('full.html');
    const preset = await tab.locator('#ls-preset').inputValue();
    if (handed || !preset || preset === 'custom') continue; // the full page's chapter, or one without a run
    // A chapter without a stage in its embed (the matrix, the search) has no drawing to show.
    const query = `?preset=${preset}&at=0&embed=1&learn=${ch}`;
    await tab.goto(`${url}${page}${query}`);
    const drawn = await tab.locator('#ls-stage text').first().waitFor({ timeout: 10000 }).then(() => true, () => false);
    if (drawn) out.push(['e', `${preset}.0~${ch}`, query]);
  }
  await tab.close();
  return out;
}

/** Takes `page`'s posters into `dir`; returns the loader's list and the bytes written. */
async function posters(browser, url, page, dir) {
  const probe = await browser.newContext();
  const list = await targets(probe, url, page);
  await probe.close();
  fs.mkdirSync(dir, { recursive: true });
  const jobs = [];
  for (const lang of Object.keys(LANGS)) {
    for (const [mode, key, query] of list) {
      for (const size of mode === 'p' ? PAGE_SIZES : EMBED_SIZES) jobs.push({ lang, mode, key, query, size });
    }
  }
  const done = { bytes: 0, steps: 0, skipped: [] };
  // Most of a poster's time is waiting for frames to settle: a few tabs take them side by side.
  await Promise.all(Array.from({ length: TABS }, () => worker(browser, `${url}${page}`, jobs, dir, done)));
  done.skipped.sort();
  return { list, ...done };
}

/** A fresh tab for `lang` that keeps the page's errors, for a failure's message. */
async function openTab(browser, lang) {
  // A context per language: the bare address takes its language from the browser's.
  const context = await browser.newContext({ locale: LANGS[lang], reducedMotion: 'reduce' });
  const tab = await context.newPage();
  tab.errors = [];
  tab.on('pageerror', (e) => tab.errors.push(`page error: ${e.message}`));
  tab.on('console', (m) => { if (m.type() === 'error') tab.errors.push(`console: ${m.text()}`); });
  return tab;
}

/**
 * Takes jobs off the shared list until it is empty, in one tab per language. A job that fails
 * (a load starved of the two cores while the native tests build beside it) is tried again in a
 * fresh tab, up to ATTEMPTS times; the last failure stops the build with the page's errors.
 */
const ATTEMPTS = 3;
async function worker(browser, base, jobs, dir, done) {
  const tabs = {};
  for (const lang of Object.keys(LANGS)) tabs[lang] = await openTab(browser, lang);
  for (let job = jobs.shift(); job; job = jobs.shift()) {
    for (let attempt = 1; ; attempt += 1) {
      const tab = tabs[job.lang];
      tab.errors.length = 0;
      try {
        await take(tab, base, job, dir, done);
        break;
      } catch (e) {
        const where = `${base}${job.query} at ${job.size} (${job.lang}), attempt ${attempt} of ${ATTEMPTS}`;
        const why = [e.message.split('\n')[0], ...tab.errors.slice(0, 5)].join('; ');
        if (attempt >= ATTEMPTS) throw new Error(`${where}: ${why}`);
        console.log(`  poster retried: ${where}: ${why}`);
        await tab.context().close();
        tabs[job.lang] = await openTab(browser, job.lang);
      }
    }
  }
  await Promise.all(Object.values(tabs).map((t) => t.context().close()));
}

/** One job: the poster of `query` at `size`, and its step poster if the swap would not jump. */
async function take(tab, base, { lang, mode, key, query, size }, dir, done) {
  const [width, height] = size.split('x').map(Number);
  await tab.setViewportSize({ width, height });
  await tab.goto(`${base}${query}`);
  await settled(tab);
  const html = await tab.evaluate(snapshot);
  const name = `${mode}-${key}-${lang}-${size}`;
  const next = await stepped(tab, base);
  // Written once both are taken: a retried job leaves no half of itself behind.
  fs.writeFileSync(path.join(dir, `${name}.html`), html);
  done.bytes += html.length;
  if (next.html) {
    fs.writeFileSync(path.join(dir, `${name}.next.html`), next.html);
    done.bytes += next.html.length;
    done.steps += 1;
  } else {
    done.skipped.push(`${query || '(bare address)'} ${size} ${lang}: ${next.why}`);
  }
}

/**
 * The step poster of the frame `tab` shows: Step pressed on the live page, the query it then
 * writes, and the first paint of a fresh load of that query — the frame the app mounts at when
 * a reader pressed Step on the poster. Kept only if that first paint is the stepped page's
 * markup exactly (else the swap to the live page would jump): { html } or { why }.
 */
async function stepped(tab, base) {
  const before = await tab.evaluate(() => document.getElementById('ls-position')?.textContent);
  const step = tab.locator('#ls-step');
  if (!(await step.isVisible()) || (await step.isDisabled())) return { why: 'no Step button' };
  await step.click();
  await settled(tab);
  const after = await tab.evaluate(() => document.getElementById('ls-position')?.textContent);
  if (after === before) return { why: 'Step does not move' };
  // The app writes the address bar a moment after a step (state.rs sync_url, 250 ms).
  await tab.waitForTimeout(400);
  const live = await tab.evaluate(snapshot);
  const query = await tab.evaluate(() => location.search);
  await tab.goto(`${base}${query}`);
  await settled(tab);
  const fresh = await tab.evaluate(snapshot);
  if (fresh !== live) return { why: `the first paint of ${query} is not the stepped page` };
  return { html: fresh };
}

async function main() {
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`no ${dist}/index.html: build first`);
  const srv = await serveDist({ dir: dist });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'] });
  fs.rmSync(path.join(dist, 'posters'), { recursive: true, force: true });
  for (const [page, sub] of [['index.html', 'posters/'], ['full.html', 'posters/full/']]) {
    const file = path.join(dist, page);
    if (!fs.existsSync(file)) continue;
    const started = Date.now();
    const { list, bytes, steps, skipped } = await posters(browser, srv.url, page, path.join(dist, sub));
    // n: the posters with a step poster at every size and in both languages (the loader asks
    // for no other: a missing file would be a failed request in the console).
    const stepped = list.filter(([mode, key]) => Object.keys(LANGS).every((lang) => (mode === 'p' ? PAGE_SIZES : EMBED_SIZES)
      .every((size) => fs.existsSync(path.join(dist, sub, `${mode}-${key}-${lang}-${size}.next.html`)))));
    const index = { d: sub, s: { p: PAGE_SIZES, e: EMBED_SIZES }, k: list.map(([mode, key]) => `${mode}:${key}`),
      n: stepped.map(([mode, key]) => `${mode}:${key}`) };
    const html = fs.readFileSync(file, 'utf8');
    if (!html.includes('var P = {};')) throw new Error(`${page} has no poster loader (var P = {};)`);
    fs.writeFileSync(file, html.replace('var P = {};', `var P = ${JSON.stringify(index)};`));
    const n = list.reduce((a, [mode]) => a + (mode === 'p' ? PAGE_SIZES : EMBED_SIZES).length, 0) * 2;
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`posters: ${n} of ${page} and ${steps} step posters in dist/${sub} (${(bytes / 1e6).toFixed(1)} MB) in ${secs} s`);
    for (const s of skipped) console.log(`  no step poster: ${s}`);
  }
  await browser.close();
  srv.close();
}

await main();
