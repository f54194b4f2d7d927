// Learn mode as a learner meets it: the course opens at its first chapter, a question waits for
// a prediction (Step waits too), a right and a wrong answer, the step that reveals it, a chapter
// opened by link and inside a sandboxed embed, answers kept across a reload, and "find the bug"
// running the exhaustive search in the page to a counterexample opened at its failing step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, withPage as sharedWithPage, position, DIST } from './harness.mjs';

let srv, browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const withPage = (name, query, body, opts) =>
  sharedWithPage(browser, new URL(srv.url).origin, name, `${srv.url}${query ? `?${query}` : ''}`, body, opts);

/** Steps until the question box is there (at most `n` steps); its step. */
async function stepToQuestion(page, n = 400) {
  for (let i = 0; i < n; i++) {
    if (await page.locator('#ls-quiz').count()) return (await position(page)).step;
    await page.locator('#ls-step').click();
  }
  throw new Error(`no question within ${n} steps`);
}

/** Steps until the quiz shows its answer; the step. */
async function stepToReveal(page, n = 2000) {
  for (let i = 0; i < n; i++) {
    if (await page.locator('#ls-quiz.ls-quiz--shown').count()) return (await position(page)).step;
    await page.locator('#ls-step').click();
  }
  throw new Error(`no reveal within ${n} steps`);
}

test('the course opens at its first chapter and lists every chapter', () => withPage('course', 'learn=', async (page) => {
  assert.equal(await page.locator('#ls-learn').getAttribute('data-chapter'), 'ids');
  assert.match(await page.locator('.ls-learn__where').innerText(), /Chapter 1 of \d+/);
  assert.ok(await page.locator('#ls-learn-intro').innerText(), 'the introduction at the start');
  assert.ok(await page.locator('#ls-course li').count() >= 14, 'the chapter list');
  await page.locator('#ls-learn-next').click();
  assert.equal(await page.locator('#ls-learn').getAttribute('data-chapter'), 'herd');
  await page.waitForFunction(() => /learn=herd/.test(location.search));
}));

test('a question waits for a prediction; a right answer, then the step that shows it', () => withPage('right', 'learn=herd', async (page) => {
  const at = await stepToQuestion(page);
  await page.locator('#ls-step').click();
  assert.equal((await position(page)).step, at, 'Step waits for the answer');
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'open');
  await page.locator('#ls-quiz [data-right="true"]').click();
  // A prediction stays a prediction: nothing says right or wrong before the run shows it.
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'chosen');
  assert.match(await page.locator('#ls-quiz-feedback').innerText(), /Your prediction/);
  assert.doesNotMatch(await page.locator('#ls-quiz-feedback').innerText(), /Right|Not quite/);
  assert.equal(await page.locator('#ls-quiz .ls-quiz__opt--right').count(), 0, 'no option marked right yet');
  assert.equal((await page.locator('#ls-course').innerText()).includes('✓ 1/1'), false, 'no tick in the chapter list yet');
  const reveal = Number(await page.locator('#ls-quiz').getAttribute('data-reveal'));
  const right = await page.locator('#ls-quiz [data-right="true"]').innerText();
  const shown = await stepToReveal(page);
  assert.ok(shown >= reveal && shown > at, `revealed at ${shown} (question at ${at}, reveal ${reveal})`);
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'right');
  assert.match(await page.locator('#ls-quiz-feedback').innerText(), /Right/);
  assert.match(await page.locator('#ls-quiz-feedback').innerText(), new RegExp(right.replace(/[^0-9A-Za-z]/g, '.')));
  // The caption of the reveal's key frame is on screen too.
  assert.ok((await page.locator('#ls-caption').innerText()).length > 0);
  await page.locator('#ls-tab-course').isVisible();
  assert.match(await page.locator('#ls-course').innerText(), /✓ 1\/1/);
}));

test('a wrong answer says so, and the answer is kept across a reload', () => withPage('wrong', 'learn=queue&lang=zh', async (page) => {
  const at = await stepToQuestion(page);
  await page.locator('#ls-quiz [data-right="false"]').first().click();
  const chosen = await page.locator('#ls-quiz [aria-pressed="true"]').getAttribute('data-i');
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'chosen');
  assert.match(await page.locator('#ls-quiz-feedback').innerText(), /你的预测/);
  const markOf = () => page.locator('#ls-course li:has([data-chapter="queue"]) .ls-course__mark');
  assert.equal((await markOf().innerText()).trim(), '', 'no mark before the run shows the answer');
  await stepToReveal(page);
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'wrong');
  assert.match(await page.locator('#ls-quiz-feedback').innerText(), /不对/);
  assert.equal(await page.locator('#ls-quiz .ls-quiz__opt--right').count(), 1, 'the right option is marked');
  const mark = await markOf().innerText();
  assert.doesNotMatch(mark, /✓/, `a wrong answer is never marked with a tick: "${mark}"`);
  assert.match(mark, /✗ 0\/1/);
  assert.match(await markOf().getAttribute('class'), /ls-course__mark--wrong/, 'a wrong mark is drawn as wrong');
  const color = await markOf().evaluate((e) => getComputedStyle(e).color);
  const ok = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--ls-ok'));
  assert.notEqual(color.replace(/\s/g, ''), ok.trim(), 'not in the colour of a right answer');
  // Reopened at the question's own step (before its reveal), the kept prediction is noted
  // as a prediction again, and the chapter list keeps its verdict.
  await page.goto(page.url().replace(/([?&])at=\d+/, '$1').replace(/#.*$/, '') + `&at=${at}`);
  await page.locator('#ls-stage').waitFor();
  assert.equal((await position(page)).step, at);
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'chosen', 'the prediction is kept in localStorage');
  assert.equal(await page.locator('#ls-quiz [aria-pressed="true"]').getAttribute('data-i'), chosen);
  assert.match(await markOf().innerText(), /✗ 0\/1/, 'and so is its verdict');
}));

test('the takeaway stays hidden until the run has answered the question', () => withPage('takeaway', 'learn=ids', async (page) => {
  const hidden = async (where) => {
    assert.equal(await page.locator('#ls-learn-takeaway').count(), 0, `no takeaway in the chapter box ${where}`);
    assert.equal(await page.locator('#ls-course-takeaway').count(), 0, `no takeaway in the drawer ${where}`);
  };
  await hidden('at the start');
  await stepToQuestion(page);
  await hidden('while the question waits');
  await page.locator('#ls-quiz [data-right="true"]').click();
  const reveal = Number(await page.locator('#ls-quiz').getAttribute('data-reveal'));
  for (let i = 0; i < 3000 && (await position(page)).step < reveal; i++) {
    if ((await position(page)).step < reveal - 1) await hidden(`before the reveal (step ${(await position(page)).step} < ${reveal})`);
    await page.locator('#ls-step').click();
  }
  // The run goes on to its last key frame; the takeaway comes once it is reached.
  for (let i = 0; i < 3000 && !(await page.locator('#ls-learn-takeaway').count()); i++) await page.locator('#ls-step').click();
  assert.ok(await page.locator('#ls-learn-takeaway').count(), 'the takeaway at the end');
  assert.ok((await position(page)).step >= reveal);
}));

test('while a question is open, nothing on the page tells its answer', () => withPage('veil', 'learn=pause', async (page) => {
  const at = await stepToQuestion(page);
  assert.doesNotMatch(await page.locator('#ls-learn-title').innerText(), /two|believ/i, 'the chapter title is neutral');
  assert.doesNotMatch(await page.locator('#ls-preset').evaluate((s) => s.selectedOptions[0].text), /two|holders/i);
  assert.equal(await page.locator('#ls-caption .ls-caption__key').count(), 0, 'no key-frame line where the question is posed');
  // The key frames ahead are plain marks: no red two-holders mark, no caption.
  const ahead = await page.locator('.ls-timeline .ls-mark').evaluateAll((ms, at) => ms
    .filter((m) => Number(m.dataset.step) >= at)
    .map((m) => ({ cls: m.className, label: m.getAttribute('aria-label'), evidence: m.dataset.evidence ?? '' })), at);
  assert.ok(ahead.length >= 2, `marks ahead: ${JSON.stringify(ahead)}`);
  for (const m of ahead) {
    assert.match(m.cls, /ls-mark--veiled/);
    assert.doesNotMatch(m.cls, /ls-mark--bad/);
    assert.equal(m.evidence, '');
    assert.doesNotMatch(m.label, /believe|holders|lost/i);
  }
  // The drawer keeps the lesson's story to itself until the run has answered.
  await page.locator('#ls-tab-lesson').click();
  assert.match(await page.locator('#ls-lesson').innerText(), /Predict first/);
  assert.equal(await page.locator('#ls-keyframes').isVisible(), false, 'the key frames wait too');
  await page.locator('#ls-quiz [data-right="true"]').click();
  await stepToReveal(page);
  assert.doesNotMatch(await page.locator('#ls-lesson').innerText(), /Predict first/, 'the lesson is back after the reveal');
  assert.ok(await page.locator('.ls-timeline .ls-mark--bad').count() > 0, 'and the marks say what they show');
}));

test('a link opens a chapter at a frame', () => withPage('link', 'learn=wakeup&at=30', async (page) => {
  assert.equal(await page.locator('#ls-learn').getAttribute('data-chapter'), 'wakeup');
  assert.equal((await position(page)).step, 30);
  assert.match(await page.locator('#ls-learn-title').innerText(), /wake/i);
}));

test('a chapter inside a sandboxed embed asks its question', async () => {
  const host = path.join(DIST, 'e2e-learn-host.html');
  fs.writeFileSync(host, '<!doctype html><title>host</title><link rel="icon" href="data:,"><iframe src="./?learn=herd&embed=1" width="800" height="500" sandbox="allow-scripts"></iframe>');
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${srv.url}e2e-learn-host.html`);
    const frame = page.frameLocator('iframe');
    await frame.locator('#ls-learn').waitFor({ timeout: 20000 });
    let asked = false;
    for (let i = 0; i < 400 && !asked; i++) {
      asked = (await frame.locator('#ls-quiz').count()) > 0;
      if (!asked) await frame.locator('#ls-step').click();
    }
    assert.ok(asked, 'the question appears in the embed');
    await frame.locator('#ls-quiz [data-right="true"]').click();
    assert.equal(await frame.locator('#ls-quiz').getAttribute('data-state'), 'chosen', 'answers work without storage');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    fs.unlinkSync(host);
  }
});

test('find the bug: the search runs in the page and opens the counterexample at its failing step', () => withPage('hunt', 'learn=hunt', async (page) => {
  await page.locator('#ls-hunt-0').click();
  await page.locator('#ls-hunt[data-done="true"]').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('#ls-hunt').getAttribute('data-found'), 'true');
  const result = await page.locator('#ls-hunt-result').innerText();
  console.log(`lost_wakeup, 2 clients: ${result}`);
  await page.locator('#ls-hunt-open').click();
  const p = await position(page);
  assert.ok(p.step > 0, 'opened at its failing step');
  assert.match(await page.locator('#ls-caption').innerText(), /stuck|wait/i);
  // A correct recipe: the space is exhausted with no violation, and the page kept drawing.
  await page.locator('#ls-hunt-2').click();
  const frames = await page.evaluate(() => new Promise((done) => {
    let n = 0; const t0 = performance.now();
    const f = () => { n += 1; if (performance.now() - t0 < 1000) requestAnimationFrame(f); else done(n); };
    requestAnimationFrame(f);
  }));
  assert.ok(frames >= 20, `the page kept drawing while searching (${frames} frames in 1 s)`);
  await page.locator('#ls-hunt[data-done="true"]').waitFor({ timeout: 120000 });
  assert.equal(await page.locator('#ls-hunt').getAttribute('data-found'), 'false');
  const clean = await page.locator('#ls-hunt-result').innerText();
  console.log(`sequential, 3 clients: ${clean}`);
  assert.match(clean, /Every state explored: 34808 states/);
  // The other broken recipe: the bigger search (a waiter may leave) finds two holders.
  await page.locator('#ls-hunt-1').click();
  await page.locator('#ls-hunt[data-done="true"]').waitFor({ timeout: 180000 });
  console.log(`no_recheck, 3 clients: ${await page.locator('#ls-hunt-result').innerText()}`);
  assert.equal(await page.locator('#ls-hunt').getAttribute('data-found'), 'true');
}));

test('the stale-read chapter: the learner predicts a stale read, then the read after sync, and the stage shows both', () => withPage('stale-read', 'learn=stale-read', async (page) => {
  await page.waitForFunction(() => /full\.html/.test(location.pathname), null, { timeout: 20000 });
  await page.locator('#ls-stage').waitFor();
  assert.equal(await page.locator('#ls-learn').getAttribute('data-chapter'), 'stale-read');
  // First question: C2 reads /lock on zk-2 while zk-2 is behind.
  await stepToQuestion(page);
  assert.match(await page.locator('#ls-quiz').innerText(), /C2 reads \/lock on zk-2/);
  const first = await page.locator('#ls-quiz [data-right="true"]').innerText();
  assert.match(first, /No \/lock: the lock looks free/, 'the stale read is the right prediction');
  await page.locator('#ls-quiz [data-right="true"]').click();
  // Step on: the stale read is answered (its caption), and the second question is posed there.
  const until = async (ok, what, n = 400) => {
    for (let i = 0; i < n; i++) {
      if (await ok()) return;
      await page.locator('#ls-step').click();
    }
    throw new Error(`not within ${n} steps: ${what}`);
  };
  await until(async () => /Stale read/.test(await page.locator('#ls-caption').innerText()), 'the stale read');
  const cards = await page.locator('#ls-stage text').allTextContents();
  assert.ok(cards.some((t) => /^stale/.test(t)), `C2's card says its read is stale: ${cards.join(' | ')}`);
  const quiz = page.locator('#ls-quiz');
  await until(async () => (await quiz.count()) > 0 && /sends sync/.test(await quiz.innerText()), 'the second question');
  assert.match(await page.locator('#ls-quiz').innerText(), /sends sync, then reads/);
  const second = await page.locator('#ls-quiz [data-right="true"]').innerText();
  assert.match(second, /\/lock exists: the lock is held/);
  await page.locator('#ls-quiz [data-right="false"]').first().click();
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'chosen');
  await stepToReveal(page);
  assert.equal(await page.locator('#ls-quiz').getAttribute('data-state'), 'wrong');
  assert.match(await page.locator('#ls-caption').innerText(), /After sync/);
}));
