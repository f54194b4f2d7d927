// The recipe editor (issue 56), as a learner meets it: from the lean page's menu to the studio
// page's editor on the lock everybody writes first; Break it finds two holders and opens the
// run at its failing step; the same text edited into ZooKeeper's sequential recipe survives a
// crash and a pause in every state; a syntax error shows its line and column as it is typed
// (in English and Chinese), and Run plays the recipe on the stage with the clients chosen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, watchedPage, screenshotOnFailure, position } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const RECIPES = path.join(path.dirname(new URL(import.meta.url).pathname), '../../recipes');
const recipe = (name) => fs.readFileSync(path.join(RECIPES, `${name}.recipe`), 'utf8');

async function open(query) {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${srv.url}${query}`);
  await page.locator('#ls-stage').waitFor({ timeout: 20000 });
  return { page, problems };
}

/** Presses Break it and waits for its verdict; the verdict and how long it took in the page. */
async function breakIt(page) {
  const t0 = Date.now();
  await page.locator('#ls-recipe-break').click();
  await page.waitForFunction(() => {
    const v = document.querySelector('#ls-recipe-verdict')?.dataset.verdict;
    return v && v !== 'searching';
  }, null, { timeout: 30000 });
  const v = page.locator('#ls-recipe-verdict');
  return { verdict: await v.getAttribute('data-verdict'), text: await v.locator('.ls-hunt__result').innerText(), ms: Date.now() - t0 };
}

test('a learner breaks the naive lock, then writes the sequential recipe and the search finds nothing', async () => {
  const { page, problems } = await open('?preset=queue&lang=en');
  try {
    // From the lean page's menu: the studio page opens with the editor.
    await page.locator('#ls-more').click();
    await page.locator('#ls-recipe-open').click();
    await page.waitForURL(/studio\.html/);
    await page.locator('#ls-recipe-dialog').waitFor({ timeout: 20000 });
    const text = page.locator('#ls-recipe-text');
    assert.equal(await text.inputValue(), recipe('naive-redis'), 'the editor starts on the naive lock');
    assert.equal(await page.locator('#ls-recipe-error').getAttribute('data-valid'), 'true');
    assert.ok(await page.locator('#ls-recipe-crash').isChecked() && await page.locator('#ls-recipe-pause').isChecked());

    const naive = await breakIt(page);
    console.log(`naive lock, 2 clients, crash + pause: ${naive.text} (${naive.ms} ms in the page)`);
    assert.equal(naive.verdict, 'found');
    assert.match(naive.text, /two clients hold the lock in a shortest run of (\d+) steps/);
    assert.ok(naive.ms < 10000, `the counterexample took ${naive.ms} ms`);
    // The run opens at its failing step, and the stage shows both clients holding.
    const steps = Number(naive.text.match(/shortest run of (\d+) steps/)[1]);
    assert.equal((await position(page)).step, steps, 'opened at the failing step');
    await page.waitForFunction(() => document.querySelectorAll('#ls-stage .ls-card--holding, #ls-stage [data-phase="holding"]').length >= 2
      || /holding the lock/.test(document.querySelector('#ls-caption')?.innerText ?? ''), null, { timeout: 5000 });

    // Edited into ZooKeeper's own recipe: every state explored, no violation.
    await text.fill(recipe('sequential'));
    await page.locator('#ls-recipe-error[data-valid="true"]').waitFor();
    const seq = await breakIt(page);
    console.log(`sequential, 2 clients, crash + pause: ${seq.text} (${seq.ms} ms in the page)`);
    assert.equal(seq.verdict, 'none', seq.text);
    assert.match(seq.text, /Every state explored: \d+ states/);
    assert.ok(seq.ms < 10000, `the full verdict took ${seq.ms} ms`);

    // A syntax error: line and column as it is typed; Run and Break it wait for a fix.
    await text.fill(recipe('sequential').replace('    loop:', '    loop'));
    await page.locator('#ls-recipe-error[data-valid="false"]').waitFor();
    assert.match(await page.locator('#ls-recipe-error').innerText(), /^line \d+, column \d+: /);
    assert.ok(await page.locator('#ls-recipe-break').isDisabled());
    assert.ok(await page.locator('#ls-recipe-run').isDisabled());
    await page.locator('#ls-lang').click();
    assert.match(await page.locator('#ls-recipe-error').innerText(), /^第 \d+ 行第 \d+ 列：/);
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'recipe-break'); throw e; } finally { await page.close(); }
});

test('Run plays a recipe on the stage with the clients chosen, and its link carries the recipe', async () => {
  const { page, problems } = await open('studio.html?lang=en#recipe');
  try {
    await page.locator('#ls-recipe-dialog').waitFor();
    const k = await page.locator('#ls-recipe-start option').evaluateAll((os) => os.findIndex((o) => o.textContent === 'sequential'));
    await page.locator('#ls-recipe-start').selectOption({ index: k });
    assert.equal(await page.locator('#ls-recipe-text').inputValue(), recipe('sequential'));
    await page.locator('#ls-recipe-clients').selectOption('3');
    await page.locator('#ls-recipe-run').click();
    await page.waitForFunction(() => Number(/(\d+) \//.exec(document.querySelector('#ls-position')?.innerText ?? '')?.[1]) > 0, null, { timeout: 15000 });
    const stage = await page.locator('#ls-stage').evaluate((e) => e.textContent);
    for (const c of ['C1', 'C2', 'C3']) assert.match(stage, new RegExp(c), `${c} on the stage`);
    assert.doesNotMatch(stage, /\bC4\b/);
    // The address carries the recipe: opened again, the same run with the same text.
    await page.waitForFunction(() => location.search.includes('scenario='));
    const url = page.url();
    const again = await open(url.replace(/^.*\/(studio\.html)/, '$1').replace(/#.*$/, '') + '#recipe');
    try {
      await again.page.locator('#ls-recipe-dialog').waitFor();
      assert.equal(await again.page.locator('#ls-recipe-text').inputValue(), recipe('sequential'));
    } finally { await again.page.close(); }
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'recipe-run'); throw e; } finally { await page.close(); }
});

test('"Write your own lock": a task opens the editor on its broken recipe, and the checker judges the fix', async () => {
  const { page, problems } = await open('full.html?learn=write&lang=en');
  try {
    await page.locator('#ls-hunt-1').click();
    await page.waitForURL(/studio\.html.*#recipe-1/);
    await page.locator('#ls-recipe-dialog').waitFor({ timeout: 20000 });
    assert.equal(await page.locator('#ls-recipe-text').inputValue(), recipe('lost-wakeup'));
    assert.equal(await page.locator('#ls-recipe-clients').inputValue(), '2');
    const broken = await breakIt(page);
    assert.equal(broken.verdict, 'found');
    assert.match(broken.text, /a waiter is stuck for ever/);
    await page.locator('#ls-recipe-text').fill(recipe('sequential'));
    const fixed = await breakIt(page);
    assert.equal(fixed.verdict, 'none', fixed.text);
    // The chapter stays open beside the editor.
    assert.match(await page.locator('#ls-learn').innerText(), /Write your own lock/);
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'recipe-task'); throw e; } finally { await page.close(); }
});
