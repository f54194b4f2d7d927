// Link previews (issue 53): for every preset and every course chapter, a static page in the
// built site, dist/share/<id>.html (English) and dist/share/<id>.zh.html, with the title, a
// description (the preset's lesson or the chapter's introduction) and a picture of its run
// (dist/share/<id>.<lang>.png, 1200×630, the embed at a key frame) in Open Graph and Twitter
// tags, which opens the app at that run. Pasted into a chat or a post, a link to it shows a
// card. Crawlers want absolute image addresses: with LOCKSTEP_SITE_URL (the address dist/ is
// served at, e.g. https://example.org/lockstep/) the tags are absolute; without, relative.
//
//   node scripts/share.mjs [DIST]          (scripts/build.sh runs it after the posters)
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDist } from '../tests/e2e/harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
const site = (process.env.LOCKSTEP_SITE_URL ?? '').replace(/\/?$/, process.env.LOCKSTEP_SITE_URL ? '/' : '');
const TABS = Number(process.env.SHARE_TABS ?? 3);

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What the full page says of a run: its title, description and the key frame to picture. */
async function describe(tab, url, query) {
  await tab.setViewportSize({ width: 1440, height: 900 });
  await tab.goto(`${url}full.html?${query}`);
  await tab.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
  const title = (await tab.title()).replace(/ · Lockstep$/, '');
  const text = await tab.evaluate(() => {
    const intro = document.querySelector('#ls-learn-intro');
    const lesson = document.querySelector('#ls-lesson');
    return ((intro && intro.textContent) || (lesson && lesson.textContent) || '').trim();
  });
  const steps = await tab.locator('.ls-timeline .ls-mark').evaluateAll((els) => els.map((e) => ({
    step: Number(e.dataset.step), bad: e.classList.contains('ls-mark--bad') })));
  // The first key frame that shows a failure, or the middle one: the run's lesson in a picture.
  const bad = steps.find((s) => s.bad);
  const at = (bad ?? steps[Math.floor(steps.length / 2)] ?? { step: 0 }).step;
  return { title, text, at };
}

function page({ id, lang, title, text, open, image }) {
  const desc = text.length > 300 ? `${text.slice(0, 297)}…` : text;
  const abs = (p) => `${site}${p}`;
  const other = lang === 'zh' ? `${id}.html` : `${id}.zh.html`;
  return `<!DOCTYPE html>
<html lang="${lang === 'zh' ? 'zh-Hans' : 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Lockstep</title>
<meta name="description" content="${esc(desc)}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Lockstep">
<meta property="og:title" content="${esc(title)}">
<meta property="og:description" content="${esc(desc)}">
<meta property="og:image" content="${esc(abs(`share/${image}`))}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:image:alt" content="${esc(title)}">
<meta property="og:url" content="${esc(abs(`share/${id}${lang === 'zh' ? '.zh' : ''}.html`))}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${esc(title)}">
<meta name="twitter:description" content="${esc(desc)}">
<meta name="twitter:image" content="${esc(abs(`share/${image}`))}">
<link rel="alternate" hreflang="${lang === 'zh' ? 'en' : 'zh-Hans'}" href="${other}">
<link rel="icon" href="data:,">
<meta http-equiv="refresh" content="0; url=../${esc(open)}">
<script>location.replace('../' + ${JSON.stringify(open)} + (location.search ? '&' + location.search.slice(1) : '') + location.hash);</script>
</head>
<body style="font-family: system-ui, sans-serif; margin: 2rem;">
<h1>${esc(title)}</h1>
<p>${esc(desc)}</p>
<p><a href="../${esc(open)}"><img src="${esc(image)}" width="600" height="315" alt="${esc(title)}"></a></p>
<p><a href="../${esc(open)}">${lang === 'zh' ? '在 Lockstep 中打开' : 'Open in Lockstep'}</a></p>
</body>
</html>
`;
}

async function main() {
  if (!fs.existsSync(path.join(dist, 'full.html'))) throw new Error(`no ${dist}/full.html: build first`);
  const srv = await serveDist({ dir: dist });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'] });
  const started = Date.now();
  const out = path.join(dist, 'share');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const probe = await browser.newPage();
  await probe.goto(`${srv.url}full.html?preset=queue`);
  await probe.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
  const presets = await probe.locator('#ls-preset option:not([disabled])').evaluateAll((os) => os.map((o) => o.value));
  await probe.goto(`${srv.url}full.html?learn=`);
  await probe.locator('button[data-chapter]').first().waitFor({ timeout: 60000 });
  const chapters = await probe.locator('button[data-chapter]').evaluateAll((els) => els.map((e) => e.dataset.chapter));
  // A run the lean first page cannot show opens on full.html directly (no hand-over on the way).
  await probe.goto(`${srv.url}index.html?preset=queue`);
  await probe.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
  const lean = new Set(await probe.locator('#ls-preset > option:not([disabled])').evaluateAll((os) => os.map((o) => o.value)));
  const leanChapters = new Set();
  for (const ch of chapters) {
    await probe.goto(`${srv.url}index.html?learn=${ch}`);
    await probe.locator('#ls-learn').waitFor({ timeout: 60000 });
    if (!new URL(probe.url()).pathname.endsWith('full.html')) leanChapters.add(ch);
  }
  await probe.close();
  const jobs = [];
  for (const lang of ['en', 'zh']) {
    for (const id of presets) jobs.push({ id, lang, query: `preset=${id}`, open: `${lean.has(id) ? 'index' : 'full'}.html?preset=${id}` });
    for (const ch of chapters) jobs.push({ id: `learn-${ch}`, lang, query: `learn=${ch}`, open: `${leanChapters.has(ch) ? 'index' : 'full'}.html?learn=${ch}` });
  }
  const index = [];
  await Promise.all(Array.from({ length: TABS }, async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const tab = await context.newPage();
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const q = `${job.query}&lang=${job.lang}`;
      job.open += `&lang=${job.lang}`;
      const { title, text, at } = await describe(tab, srv.url, q);
      await tab.setViewportSize({ width: 1200, height: 630 });
      await tab.goto(`${srv.url}full.html?${q}&at=${at}&embed=1`);
      await tab.locator('#ls-stage text').first().waitFor({ timeout: 60000 });
      await tab.waitForTimeout(200);
      const image = `${job.id}.${job.lang}.png`;
      await tab.screenshot({ path: path.join(out, image) });
      const name = `${job.id}${job.lang === 'zh' ? '.zh' : ''}.html`;
      fs.writeFileSync(path.join(out, name), page({ ...job, title, text, image }));
      index.push({ name, title, lang: job.lang });
    }
    await context.close();
  }));
  index.sort((a, b) => a.name.localeCompare(b.name));
  const list = index.map((e) => `<li lang="${e.lang === 'zh' ? 'zh-Hans' : 'en'}"><a href="${esc(e.name)}">${esc(e.title)}</a></li>`).join('\n');
  fs.writeFileSync(path.join(out, 'index.html'), `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Lockstep: link previews</title><link rel="icon" href="data:,"></head>\n<body style="font-family: system-ui, sans-serif"><h1>Lockstep: every run, as a link with a preview</h1><ul>\n${list}\n</ul></body></html>\n`);
  await browser.close();
  srv.close();
  console.log(`share: ${index.length} pages with link previews in dist/share/ in ${((Date.now() - started) / 1000).toFixed(1)} s${site ? ` (absolute to ${site})` : ''}`);
}

await main();
