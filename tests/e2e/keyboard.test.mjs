// Every action without a mouse (issue 57): the stage is one tab stop whose clients, servers,
// entries and messages ↑/↓ walk; Enter opens the popover a click opens and Escape comes back;
// each thing is named with its state; the caption, a polite live region, changes once a step;
// and axe-core finds nothing on a preset, compare mode, the course, the studio editor and an
// embed, in English and Chinese. No test here moves or presses a mouse.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serveDist, launch, watchedPage, screenshotOnFailure, position } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

const AXE = path.join(path.dirname(new URL(import.meta.url).pathname), '../../node_modules/axe-core/axe.min.js');

async function open(query, { width = 1440, height = 900 } = {}) {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  await page.setViewportSize({ width, height });
  // Counts every pointer event the page sees: a keyboard-only test must see none.
  await page.addInitScript(() => {
    window.__pointer = 0;
    for (const t of ['mousedown', 'pointerdown', 'mouseup', 'pointerup']) {
      addEventListener(t, () => { window.__pointer += 1; }, true);
    }
  });
  await page.goto(`${srv.url}${query}`);
  await page.locator('#ls-stage [data-focus]').first().waitFor({ state: 'attached', timeout: 20000 });
  return { page, problems };
}

const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return { id: a?.getAttribute('data-focus') ?? null, name: a?.getAttribute('aria-label') ?? '', tag: a?.tagName ?? '', act: a?.getAttribute('data-act') ?? null, inStage: !!a?.closest('#ls-stage') };
});

/** Waits for focus to move into the popover (a frame after it is drawn). */
const inPopover = (page) => page.waitForFunction(() => !!document.activeElement?.closest('#ls-pop'));

/** Tabs from the page's start until focus is on the stage; how many presses it took. */
async function tabToStage(page) {
  for (let n = 1; n <= 60; n += 1) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).inStage) return n;
  }
  throw new Error('60 Tabs never reached the stage');
}

/** Walks the stage with ↓ until the focused thing's name or id matches; its name. */
async function walkTo(page, match) {
  for (let n = 0; n < 80; n += 1) {
    const f = await focused(page);
    if (match(f)) return f;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error('80 presses of ↓ never reached it');
}

/** Tabs inside the popover until the action button `act` has focus. */
async function tabToAct(page, act) {
  for (let n = 0; n < 20; n += 1) {
    if ((await focused(page)).act === act) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`no ${act} button reached`);
}

async function done(page, problems, name, body) {
  try {
    await body();
    assert.equal(await page.evaluate(() => window.__pointer), 0, 'no pointer event at all');
    assert.deepEqual(problems.pageErrors, [], 'page errors');
    assert.deepEqual(problems.consoleErrors, [], 'console errors');
  } catch (e) {
    await screenshotOnFailure(page, name);
    throw e;
  } finally {
    await page.close();
  }
}

test('keyboard only: reach C2 on holder-crash, crash it from its popover, step to its expiry, read a node', async () => {
  const { page, problems } = await open('?preset=holder-crash&lang=en&at=8');
  await done(page, problems, 'kbd-holder-crash', async () => {
    const tabs = await tabToStage(page);
    const first = await focused(page);
    assert.equal(first.id, 'client:0', 'the stage’s one stop starts on C1');
    console.log(`${tabs} Tab presses from the page's start to the stage; C1 reads "${first.name}"`);
    const c2 = await walkTo(page, (f) => f.id === 'client:1');
    assert.match(c2.name, /^C2, /, c2.name);
    await page.keyboard.press('Enter');
    await page.locator('#ls-pop').waitFor();
    await inPopover(page);
    assert.equal((await focused(page)).tag, 'BUTTON', 'focus went into the popover, on its first action');
    await tabToAct(page, 'crash');
    await page.keyboard.press('Enter');
    await page.locator('#ls-pop').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-focus') === 'client:1');
    await page.waitForFunction(() => /crashed/.test(document.activeElement?.getAttribute('aria-label') ?? ''));
    console.log(`after c: "${(await focused(page)).name}"`);
    // → steps on (the page's own key) while the stage keeps focus on C2, whose name counts its
    // session down until the service ends it.
    const start = (await position(page)).step;
    await page.evaluate(() => { window.__c2 = document.activeElement; window.__focusins = 0; document.querySelector('#ls-stage').addEventListener('focusin', () => { window.__focusins += 1; }); });
    let f;
    for (let n = 0; n < 600; n += 1) {
      await page.keyboard.press('ArrowRight');
      f = await focused(page);
      if (/session ended/.test(f.name)) break;
    }
    assert.equal(f.id, 'client:1', 'focus stayed on C2 while the stage redrew');
    assert.match(f.name, /session ended/, `C2's session expired: ${f.name}`);
    const kept = await page.evaluate(() => ({ same: document.activeElement === window.__c2, focusins: window.__focusins }));
    console.log(`expiry after ${(await position(page)).step - start} steps: "${f.name}"; the same element kept focus: ${kept.same}, focus events meanwhile: ${kept.focusins}`);
    assert.ok(kept.same && kept.focusins === 0, 'C2’s card changed in place: a screen reader hears its new name, not a new object');
    // Its node is a ghost now; a live node opens with its fields.
    const node = await walkTo(page, (x) => /^entry:/.test(x.id ?? '') && /owned by C/.test(x.name));
    await page.keyboard.press('Enter');
    await inPopover(page);
    const fields = await page.locator('#ls-inspector').innerText();
    assert.match(fields, /ephemeralOwner/, fields);
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'ls-pop__close', 'focus is in the popover (on its close button): the dialog, its name and fields are read');
    console.log(`${node.name}: ${fields.replace(/\s+/g, ' ')}`);
    await page.keyboard.press('Escape');
    await page.locator('#ls-pop').waitFor({ state: 'detached' });
    await page.waitForFunction((id) => document.activeElement?.getAttribute('data-focus') === id, node.id);
  });
});

test('keyboard only: the ensemble’s leader crashes from its server’s popover, and c crashes a client', async () => {
  const { page, problems } = await open('full.html?preset=zk-leader-crash&lang=en');
  await done(page, problems, 'kbd-ensemble', async () => {
    await tabToStage(page);
    const leader = await walkTo(page, (f) => /^server:/.test(f.id ?? '') && /leader/.test(f.name));
    console.log(`the leader reads "${leader.name}"`);
    await page.keyboard.press('Enter');
    await page.locator('#ls-pop').waitFor();
    await inPopover(page);
    assert.equal((await focused(page)).act, 'crash-server', 'the popover opens on its first action: crash');
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => {
      const a = document.activeElement;
      return a?.getAttribute('data-focus') === id && /down/.test(a.getAttribute('aria-label'));
    }, leader.id);
    console.log(`after Enter: "${(await focused(page)).name}"`);
    // A letter strikes at the focused thing: c crashes C1.
    await walkTo(page, (f) => f.id === 'client:0');
    await page.keyboard.press('c');
    await page.waitForFunction(() => /crashed/.test(document.activeElement?.getAttribute('aria-label') ?? ''));
  });
});

test('keyboard only in a Chinese 800×500 embed: Tab reaches the stage, names are Chinese, Enter opens a client', async () => {
  const { page, problems } = await open('?preset=holder-crash&embed=1&at=25&lang=zh', { width: 800, height: 500 });
  await done(page, problems, 'kbd-embed-zh', async () => {
    const tabs = await tabToStage(page);
    const f = await focused(page);
    assert.equal(f.id, 'client:0');
    assert.match(f.name, /^C1，|^C1, /, f.name);
    assert.match(f.name, /[\u4e00-\u9fff]/, `a Chinese name: ${f.name}`);
    console.log(`embed: ${tabs} Tab presses to the stage; C1 reads "${f.name}"`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await page.locator('#ls-pop').waitFor();
    await inPopover(page);
    assert.equal((await focused(page)).tag, 'BUTTON');
    await page.keyboard.press('Escape');
    await page.locator('#ls-pop').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-focus') === 'client:1');
  });
});

test('the caption is a polite live region whose text changes once a step (herd, three steps)', async () => {
  const { page, problems } = await open('?preset=herd&lang=en&at=3');
  await done(page, problems, 'kbd-live', async () => {
    await page.evaluate(() => {
      window.__said = [];
      const cap = document.querySelector('#ls-caption');
      let last = cap.textContent;
      new MutationObserver(() => {
        if (cap.textContent !== last) { last = cap.textContent; window.__said.push(last); }
      }).observe(cap, { subtree: true, childList: true, characterData: true });
    });
    // What assistive technology is given: the region's live and atomic properties from
    // Chromium's accessibility tree, and its text as an accessibility snapshot.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Accessibility.enable');
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const prop = (n, k) => (n.properties ?? []).find((p) => p.name === k)?.value.value;
    assert.ok(nodes.some((n) => prop(n, 'live') === 'polite' && prop(n, 'atomic') === true), 'a polite, atomic live region');
    const live = () => page.locator('#ls-caption').ariaSnapshot();
    for (let i = 1; i <= 3; i += 1) {
      const before = await page.evaluate(() => window.__said.length);
      await page.locator('#ls-step').focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((n) => window.__said.length > n, before);
      await page.waitForTimeout(900);
      const said = await page.evaluate((n) => window.__said.slice(n), before);
      assert.equal(said.length, 1, `step ${i}: the caption changed ${said.length} times: ${JSON.stringify(said)}`);
      const { step } = await position(page);
      console.log(`step ${step}: the live region reads ${JSON.stringify(await live())}`);
    }
  });
});

async function axe(page, what) {
  await page.addScriptTag({ path: AXE });
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert.deepEqual(r, [], `${what}: axe-core violations`);
}

for (const lang of ['en', 'zh']) {
  test(`axe-core finds no violation on a preset, compare mode, the course, the studio editor and an embed (${lang})`, async () => {
    const pages = [
      ['preset', `?preset=holder-crash&lang=${lang}&at=30`, {}],
      ['ensemble', `full.html?preset=zk-leader-crash&lang=${lang}&at=40`, {}],
      ['compare', `full.html?preset=redis-lease-pause&lang=${lang}&compare=curator,redis-lease`, {}],
      ['course', `?learn=herd&lang=${lang}`, {}],
      ['studio editor', `studio.html?lang=${lang}#recipe`, {}],
      ['embed', `?preset=holder-crash&embed=1&at=25&lang=${lang}`, { width: 800, height: 500 }],
    ];
    for (const [what, query, size] of pages) {
      const { page, problems } = await open(query, size);
      await done(page, problems, `axe-${what}-${lang}`, async () => {
        if (what === 'compare') await page.locator('.ls-compare__col').first().waitFor({ timeout: 20000 });
        if (what === 'studio editor') await page.locator('#ls-recipe-dialog').waitFor({ timeout: 20000 });
        await axe(page, `${what} (${lang})`);
      });
    }
  });
}
