// Export animation (issue 23): a step range as an animated GIF (or WebM) at 800×500 or 640×400,
// made in the page with a progress bar, a cancel button and the file's size before saving; the
// lean and full pages hand over to the studio page, which opens the dialog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, watchedPage, screenshotOnFailure, position } from './harness.mjs';

let srv; let browser;
before(async () => { srv = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); srv?.close(); });

/** Opens the dialog on `query` (the studio page) and sets the range. */
async function dialog(query, from, to) {
  const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${srv.url}studio.html${query}`);
  await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
  await page.locator('#ls-more').click();
  await page.locator('#ls-export-anim').click();
  await page.locator('#ls-anim-dialog').waitFor();
  for (const [id, v] of [['#ls-anim-from', from], ['#ls-anim-to', to]]) {
    await page.locator(id).fill(String(v));
    await page.locator(id).dispatchEvent('change');
  }
  return { page, problems };
}

/** The made file, decoded by the browser: its bytes, type, and for a GIF frames and size. */
async function made(page) {
  return page.evaluate(async () => {
    const a = document.querySelector('#ls-anim-save');
    const blob = await (await fetch(a.href)).blob();
    const out = { name: a.download, bytes: blob.size, type: blob.type };
    if (blob.type === 'image/gif') {
      const dec = new ImageDecoder({ data: await blob.arrayBuffer(), type: 'image/gif' });
      await dec.tracks.ready;
      const last = await dec.decode({ frameIndex: dec.tracks.selectedTrack.frameCount - 1 });
      Object.assign(out, { frames: dec.tracks.selectedTrack.frameCount, w: last.image.displayWidth, h: last.image.displayHeight,
        lastMs: last.image.duration / 1000 });
    }
    return out;
  });
}

test('a step range becomes an animated GIF at 800×500 with a frame per still and its size shown', async () => {
  const { page, problems } = await dialog('?preset=herd&at=36', 30, 36);
  try {
    await page.locator('#ls-anim-pings').check(); // every step, heartbeats too
    await page.locator('#ls-anim-make').click();
    await page.locator('#ls-anim-result').waitFor({ timeout: 60000 });
    const shown = await page.locator('#ls-anim-result').innerText();
    const gif = await made(page);
    // 7 steps: 7 holds and 6 × 5 in-between stills.
    assert.equal(gif.frames, 37);
    assert.deepEqual([gif.w, gif.h], [800, 500]);
    assert.equal(gif.name, 'lockstep-herd-30-36.gif');
    assert.equal(gif.lastMs, 3000, 'step 36 is a key frame: it holds 3 s');
    assert.equal(Number(await page.locator('#ls-anim-result').getAttribute('data-bytes')), gif.bytes);
    assert.match(shown, /lockstep-herd-30-36\.gif · \d+ KB · 37 stills/);
    assert.ok(await page.locator('.ls-anim__preview').isVisible(), 'a preview before saving');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#ls-anim-save').click()]);
    assert.equal(download.suggestedFilename(), 'lockstep-herd-30-36.gif');
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'anim gif'); throw e; } finally { await page.close(); }
});

test('an animation skips heartbeat steps unless asked to keep them (gc-pause 60–70)', async () => {
  const { page } = await dialog('?preset=gc-pause&at=70', 60, 70);
  try {
    await page.locator('#ls-anim-make').click();
    await page.locator('#ls-anim-result').waitFor({ timeout: 60000 });
    const lean = await made(page);
    // The steps of 60..=70 that are not heartbeats, as the page's step records say.
    await page.locator('#ls-anim-pings').check();
    await page.locator('#ls-anim-make').click();
    await page.waitForFunction((n) => Number(document.querySelector('#ls-anim-result')?.dataset.stills) > n, lean.frames, { timeout: 60000 });
    const all = await made(page);
    assert.equal(all.frames, 11 + 10 * 5, 'every one of the 11 steps');
    assert.ok(lean.frames < all.frames, `heartbeats skipped: ${lean.frames} stills against ${all.frames}`);
    assert.equal((lean.frames - 1) % 6, 0, 'a hold and five in-betweens per step kept');
  } catch (e) { await screenshotOnFailure(page, 'anim heartbeats'); throw e; } finally { await page.close(); }
});

test('at 640×400 in Chinese, and cancelled half-way, the page keeps running', async () => {
  const { page, problems } = await dialog('?preset=gc-pause&at=31&lang=zh', 25, 31);
  try {
    await page.locator('#ls-anim-size').selectOption('1');
    await page.locator('#ls-anim-pings').check(); // every step, heartbeats too
    await page.locator('#ls-anim-make').click();
    await page.locator('#ls-anim-result').waitFor({ timeout: 60000 });
    const gif = await made(page);
    assert.deepEqual([gif.w, gif.h, gif.frames], [640, 400, 37]);
    assert.match(await page.locator('#ls-anim-result').innerText(), /37 帧/);
    // A long one, cancelled once it has begun.
    await page.locator('#ls-anim-from').fill('0');
    await page.locator('#ls-anim-from').dispatchEvent('change');
    await page.locator('#ls-anim-to').fill('70');
    await page.locator('#ls-anim-to').dispatchEvent('change');
    await page.locator('#ls-anim-make').click();
    // Pressed from inside the page the moment three stills are made: the export yields between
    // stills, but on a loaded machine it can starve Playwright's click checks (which wait for
    // animation frames) until the export is done.
    const pressed = await page.waitForFunction(() => {
      const cancel = document.querySelector('#ls-anim-cancel');
      if (!(Number(document.querySelector('#ls-anim-progress')?.value) >= 3) || cancel.disabled) return false;
      cancel.click();
      return true;
    }, null, { timeout: 30000, polling: 10 });
    assert.equal(await pressed.jsonValue(), true);
    assert.equal(await page.locator('#ls-anim-progress, #ls-anim-result').count(), 0);
    await page.locator('#ls-anim-close').click();
    const before = (await position(page)).step;
    await page.locator('#ls-step').click();
    await page.waitForFunction((b) => !document.querySelector('#ls-position').textContent.includes(`${b} /`), before);
    assert.deepEqual(problems.pageErrors, []);
  } catch (e) { await screenshotOnFailure(page, 'anim cancel'); throw e; } finally { await page.close(); }
});

test('a range backwards, past the run or too long gets a message, not a file', async () => {
  const { page, problems } = await dialog('?preset=herd&at=36', 40, 30);
  try {
    for (const [a, b] of [[40, 30], [0, 99999999999], [0, 400]]) {
      await page.locator('#ls-anim-from').fill(String(a));
      await page.locator('#ls-anim-from').dispatchEvent('change');
      await page.locator('#ls-anim-to').fill(String(b));
      await page.locator('#ls-anim-to').dispatchEvent('change');
      await page.locator('#ls-anim-make').click();
      assert.match(await page.locator('#ls-anim-error').innerText(), /at most 160 steps/);
    }
    assert.deepEqual(problems.pageErrors, []);
  } finally { await page.close(); }
});

for (const [from, query, preset, at] of [
  ['lean', '?preset=herd&at=36', 'herd', '36'],
  ['full', 'full.html?preset=redis-failover&at=21', 'redis-failover', '21'],
]) {
  test(`the ${from} page hands over to the studio page with the dialog open at the same frame`, async () => {
    const { page, problems } = await watchedPage(browser, new URL(srv.url).origin);
    try {
      await page.goto(`${srv.url}${query}`);
      await page.locator('#ls-stage text').first().waitFor({ timeout: 20000 });
      await page.locator('#ls-more').click();
      await page.locator('#ls-export-anim').click();
      await page.locator('#ls-anim-dialog').waitFor({ timeout: 20000 });
      assert.match(page.url(), new RegExp(`studio\\.html\\?.*preset=${preset}.*#animation$`));
      assert.equal(await page.locator('#ls-anim-to').inputValue(), at);
      // The studio page's links lead to the full page: the same frame, less to download.
      await page.locator('#ls-anim-close').click();
      await page.locator('#ls-share').click();
      assert.match(await page.locator('#ls-share-text').inputValue(), new RegExp(`/full\\.html\\?.*preset=${preset}`));
      assert.deepEqual(problems.pageErrors, []);
    } catch (e) { await screenshotOnFailure(page, `anim-handover-${from}`); throw e; } finally { await page.close(); }
  });
}

test('where the browser records video, the same range becomes a WebM', async () => {
  const { page } = await dialog('?preset=herd&at=36', 35, 36);
  try {
    const webm = await page.locator('#ls-anim-format option[value="webm"]').count();
    if (!webm) return; // this browser has no MediaRecorder for WebM: GIF only
    await page.locator('#ls-anim-format').selectOption('webm');
    await page.locator('#ls-anim-make').click();
    await page.locator('#ls-anim-result').waitFor({ timeout: 60000 });
    const v = await made(page);
    assert.equal(v.type, 'video/webm');
    assert.equal(v.name, 'lockstep-herd-35-36.webm');
    assert.ok(v.bytes > 1000, `${v.bytes} bytes`);
    // The last still (a key frame, 3 s) is held to the end of the video: its duration is the
    // sum of every still's, not that less the last hold.
    const secs = await page.evaluate(async () => {
      const a = document.querySelector('#ls-anim-save');
      const video = document.createElement('video');
      video.muted = true;
      video.src = a.href;
      await new Promise((ok) => { video.onloadedmetadata = ok; });
      if (!Number.isFinite(video.duration)) {
        video.currentTime = 1e6;
        await new Promise((ok) => { video.ontimeupdate = () => { if (Number.isFinite(video.duration)) ok(); }; });
      }
      return video.duration;
    });
    const stills = Number(await page.locator('#ls-anim-result').getAttribute('data-stills'));
    assert.ok(stills >= 2, `${stills} stills`);
    assert.ok(secs >= 3.0 + 0.3, `the video lasts ${secs} s: the final 3 s hold is kept`);
  } catch (e) { await screenshotOnFailure(page, 'anim webm'); throw e; } finally { await page.close(); }
});
