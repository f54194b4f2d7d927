// Authors' lessons (issue 23): a lesson link plays to the author's stops and shows their words in
// English and Chinese; the editor writes a lesson from the stage (a stop at the current frame,
// its text, the link and the file), and the file imports back to the same lesson. The lean page
// reads no lessons: it hands a lesson link or file over to the full page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serveDist, launch, watchedPage, screenshotOnFailure, position } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const LESSON = {
  lockstep_lesson: 1,
  id: 'e2e-herd',
  title: { en: 'Watch the herd', zh: '看羊群' },
  intro: { en: 'Two stops of my own.', zh: '我自己的两个停靠点。' },
  preset: 'herd',
  stops: [
    { step: 3, title: { en: 'First', zh: '第一' }, text: { en: 'C1 asks first.', zh: 'C1 最先请求。' } },
    { step: 6, text: { en: 'Only English here.' } },
  ],
};

const b64url = (s) => Buffer.from(s).toString('base64url');

async function open(query, size = { width: 1440, height: 900 }) {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  await page.setViewportSize(size);
  await page.goto(`${srv.url}${query}`);
  await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
  return { page, problems };
}

/** Plays until playback stops by itself; the position it stopped at. */
async function playToStop(page) {
  await page.locator('#ls-play').click();
  await page.waitForFunction(() => document.querySelector('#ls-play').getAttribute('aria-pressed') === 'false', null, { timeout: 20000 });
  return (await position(page)).step;
}

test('a lesson link plays to the author\'s stops and shows their words in English and Chinese', async () => {
  const q = `?lesson=${b64url(JSON.stringify(LESSON))}&at=0`;
  const { page, problems } = await open(`full.html${q}&lang=en`);
  try {
    assert.equal(await page.locator('#ls-learn').getAttribute('data-lesson'), 'author');
    assert.equal(await page.locator('#ls-learn-title').innerText(), 'Watch the herd');
    assert.equal(await playToStop(page), 3, 'Play stops at the first stop');
    assert.match(await page.locator('#ls-caption').innerText(), /First: C1 asks first\./);
    assert.equal(await playToStop(page), 6, 'and at the second');
    assert.match(await page.locator('#ls-caption').innerText(), /Only English here\./);
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'lesson-link'); throw e; } finally { await page.close(); }
  const zh = await open(`full.html${q.replace('at=0', 'at=3')}&lang=zh`);
  try {
    assert.equal(await zh.page.locator('#ls-learn-title').innerText(), '看羊群');
    assert.match(await zh.page.locator('#ls-caption').innerText(), /第一：C1 最先请求。/);
    await zh.page.locator('#ls-step').click();
    for (let i = 0; i < 10 && (await position(zh.page)).step < 6; i++) await zh.page.locator('#ls-step').click();
    assert.equal((await position(zh.page)).step, 6, 'Step never skips a stop');
    assert.match(await zh.page.locator('#ls-caption').innerText(), /Only English here\./, 'a missing language shows the other');
    assert.deepEqual(zh.problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(zh.page, 'lesson-link-zh'); throw e; } finally { await zh.page.close(); }
});

test('the lean page hands a lesson link over; a broken lesson link says why and shows the default run', async () => {
  const lean = await open(`index.html?lesson=${b64url(JSON.stringify(LESSON))}&at=3&lang=en`);
  try {
    await lean.page.waitForURL(/full\.html\?lesson=[\w-]+&at=3&lang=en$/);
    await lean.page.locator('#ls-learn[data-lesson="author"]').waitFor();
    assert.match(await lean.page.locator('#ls-caption').innerText(), /First: C1 asks first\./);
  } finally { await lean.page.close(); }
  const bad = b64url(JSON.stringify({ ...LESSON, lockstep_lesson: 9 }));
  const { page } = await open(`full.html?lesson=${bad}`);
  try {
    assert.match(await page.locator('#ls-error').innerText(), /version 9 is not one this Lockstep reads/);
    assert.equal(await page.locator('#ls-learn').count(), 0);
  } finally { await page.close(); }
});

test('the editor writes a lesson from the stage; its link and its file open the same lesson', async () => {
  const { page, problems } = await open('full.html?preset=herd&at=7&lang=en');
  let link; let file;
  try {
    await page.locator('#ls-more').click();
    await page.locator('#ls-lesson-open').click();
    await page.locator('#ls-lesson-dialog').waitFor();
    // The full page handed the editor over to the studio page, at the same frame.
    assert.match(page.url(), /studio\.html\?preset=herd.*#lesson$/);
    await page.locator('#ls-lesson-id').fill('round-trip');
    await page.locator('#ls-lesson-name-en').fill('My herd');
    await page.locator('#ls-lesson-name-zh').fill('我的羊群');
    await page.locator('#ls-lesson-add').click();
    await page.locator('#ls-lesson-stop0-title-en').fill('Here');
    await page.locator('#ls-lesson-stop0-title-zh').fill('这里');
    await page.locator('#ls-lesson-stop0-text-en').fill('Everyone waits.');
    await page.locator('#ls-lesson-stop0-text-zh').fill('大家都在等。');
    assert.equal(await page.locator('.ls-lesson-step').inputValue(), '7', 'the stop is at the current frame');
    assert.equal(await page.locator('#ls-lesson-check').getAttribute('data-valid'), 'true');
    await page.locator('#ls-lesson-id').fill('no spaces allowed');
    assert.equal(await page.locator('#ls-lesson-check').getAttribute('data-valid'), 'false');
    assert.match(await page.locator('#ls-lesson-check').innerText(), /`id`/);
    assert.ok(await page.locator('#ls-lesson-link').isDisabled(), 'no link for an invalid lesson');
    await page.locator('#ls-lesson-id').fill('round-trip');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#ls-lesson-save').click()]);
    assert.equal(download.suggestedFilename(), 'round-trip.json');
    file = fs.readFileSync(await download.path(), 'utf8');
    const saved = JSON.parse(file);
    assert.equal(saved.lockstep_lesson, 1);
    assert.deepEqual(saved.stops, [{ step: 7, title: { en: 'Here', zh: '这里' }, text: { en: 'Everyone waits.', zh: '大家都在等。' } }]);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(srv.url).origin });
    await page.locator('#ls-lesson-link').click();
    // Copied and said so in the panel: no second dialog to close.
    await page.locator('#ls-lesson-status', { hasText: 'Copied' }).waitFor();
    assert.equal(await page.locator('#ls-share-dialog').count(), 0);
    link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /full\.html\?lesson=[\w-]+&at=0&lang=en$/);
    await page.locator('#ls-lesson-preview').click();
    assert.equal(await page.locator('#ls-lesson-dialog').count(), 0);
    assert.equal(await page.locator('#ls-learn-title').innerText(), 'My herd');
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'lesson-editor'); throw e; } finally { await page.close(); }

  // The link: the stop and its words, in Chinese too.
  const viaLink = await open(link.slice(srv.url.length).replace('lang=en', 'lang=zh').replace('at=0', 'at=7'));
  try {
    assert.equal(await viaLink.page.locator('#ls-learn-title').innerText(), '我的羊群');
    assert.match(await viaLink.page.locator('#ls-caption').innerText(), /这里：大家都在等。/);
  } finally { await viaLink.page.close(); }

  // The file, imported into the lean page, is the same lesson; the editor opens it as it was.
  const viaFile = await open('index.html?preset=queue');
  try {
    await viaFile.page.locator('#ls-more').click();
    await viaFile.page.locator('#ls-import').setInputFiles({ name: 'round-trip.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await viaFile.page.waitForURL(/full\.html\?lesson=/);
    await viaFile.page.locator('#ls-learn[data-lesson="author"]').waitFor();
    assert.equal(await viaFile.page.locator('#ls-learn-title').innerText(), 'My herd');
    for (let i = 0; i < 40 && (await position(viaFile.page)).step < 7; i++) await viaFile.page.locator('#ls-step').click();
    assert.match(await viaFile.page.locator('#ls-caption').innerText(), /Here: Everyone waits\./);
  } finally { await viaFile.page.close(); }
  const again = await open(`${link.slice(srv.url.length)}#lesson`);
  try {
    await again.page.locator('#ls-lesson-dialog').waitFor();
    assert.match(again.page.url(), /studio\.html\?lesson=.*#lesson$/);
    assert.equal(await again.page.locator('#ls-lesson-id').inputValue(), 'round-trip');
    assert.equal(await again.page.locator('#ls-lesson-stop0-text-zh').inputValue(), '大家都在等。');
    const saved = await Promise.all([again.page.waitForEvent('download'), again.page.locator('#ls-lesson-save').click()]);
    assert.equal(fs.readFileSync(await saved[0].path(), 'utf8'), file, 'the same file, byte for byte');
  } catch (e) { await screenshotOnFailure(again.page, 'lesson-editor-again'); throw e; } finally { await again.page.close(); }
});

test('the editor is a side panel: the stage steps beside it, a stop needs a frame, a question must be one the run answers', async () => {
  const { page, problems } = await open('studio.html?preset=redis-lease-pause&at=0&lang=en#lesson');
  try {
    await page.locator('#ls-lesson-dialog').waitFor();
    assert.ok(await page.locator('#ls-lesson-add').isDisabled(), 'no stop at step 0');
    assert.match(await page.locator('#ls-lesson-add').innerText(), /Step to a frame/);
    // The stage's own Step, pressed with the panel open.
    await page.locator('#ls-step').click();
    const at = (await position(page)).step;
    assert.ok(at > 0);
    assert.match(await page.locator('#ls-lesson-add').innerText(), new RegExp(`step ${at}\\)`));
    await page.locator('#ls-lesson-add').click();
    // A sequence number on Redis: the run never answers it, and the editor says so.
    const ask = page.locator('.ls-lesson-ask');
    const k = await ask.locator('option').evaluateAll((os) => os.findIndex((o) => /sequence number/.test(o.textContent)));
    await ask.selectOption({ index: k });
    await page.waitForFunction(() => document.querySelector('#ls-lesson-check')?.dataset.valid === 'false');
    assert.match(await page.locator('#ls-lesson-check').innerText(), /stops\[1\]\.ask/);
    await ask.selectOption({ index: 0 });
    await page.waitForFunction(() => document.querySelector('#ls-lesson-check')?.dataset.valid === 'true');
    // Only the author's stops: the preset's own key frames are not stops of the preview.
    await page.locator('#ls-lesson-own').uncheck();
    await page.locator('#ls-lesson-preview').click();
    await page.locator('#ls-learn[data-lesson="author"]').waitFor();
    const marks = await page.locator('.ls-timeline .ls-mark').evaluateAll((ms) => ms.map((m) => Number(m.dataset.step)));
    assert.deepEqual(marks, [at], `only the author's stop is a key frame: ${marks}`);
    assert.match(await page.title(), /^My lesson · Lockstep$|^Redis SET NX PX/, 'the lesson titles the page');
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'lesson-panel'); throw e; } finally { await page.close(); }
});

test('an author\'s question at a stop waits for the reader\'s prediction, and the run answers it', async () => {
  const lesson = {
    lockstep_lesson: 1, id: 'e2e-ask', title: { en: 'Predict the herd', zh: '预测羊群' }, preset: 'herd',
    stops: [{ step: 36, title: { en: 'Everyone waits', zh: '大家都在等' }, text: { en: 'Five watches on one node.' }, ask: 'notified' }],
  };
  const { page, problems } = await open(`full.html?lesson=${b64url(JSON.stringify(lesson))}&at=35&lang=en`);
  try {
    await page.locator('#ls-step').click();
    assert.equal((await position(page)).step, 36);
    assert.match(await page.locator('#ls-caption').innerText(), /Everyone waits: Five watches on one node\./);
    assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'open');
    await page.locator('#ls-step').click();
    assert.equal((await position(page)).step, 36, 'Step waits for the prediction');
    await page.locator('#ls-quiz [data-right="true"]').click();
    // A prediction stays a prediction until the run shows the answer.
    assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'chosen');
    const right = await page.locator('#ls-quiz [data-right="true"]').innerText();
    assert.equal(right.trim(), '5', 'five waiters are notified at once');
    for (let i = 0; i < 80 && !(await page.locator('#ls-quiz.ls-quiz--shown').count()); i++) await page.locator('#ls-step').click();
    assert.equal((await position(page)).step, Number(await page.locator('#ls-quiz').getAttribute('data-reveal')));
    assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'right');
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'lesson-ask'); throw e; } finally { await page.close(); }
});
