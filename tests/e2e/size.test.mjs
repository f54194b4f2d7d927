// Each bundle stays under its ceiling (gzip -9 of wasm + JS + CSS); the message names the sizes,
// the ceiling and the goal still ahead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BUDGETS, sizes } from './sizes.mjs';
import { DIST } from './harness.mjs';

for (const [page, b] of Object.entries(BUDGETS)) {
  test(`${b.label} stays under its ceiling`, () => {
    const s = sizes(page);
    const goal = b.goal === null ? 'no goal of its own' : `goal ${b.goal} B`;
    assert.ok(s.gz <= b.ceiling,
      `${b.label}: ${s.gz} B gzip is over its ceiling of ${b.ceiling} B by ${s.gz - b.ceiling} B (${goal}; files ${s.files.join(', ')})`);
    const left = b.goal === null ? '' : ` (${s.gz - b.goal} B to go)`;
    console.log(`${b.label}: ${s.gz} B gzip, ceiling ${b.ceiling} B, ${goal}${left}`);
  });
}

// A panic message that formats a float keeps `<f32 as Debug>` and the shortest-float algorithms
// (14.6 KB of code) for that message alone: `f32::clamp` with bounds the compiler cannot prove
// ordered is one. `view::geometry::within` is the clamp that never panics.
for (const [page, b] of Object.entries(BUDGETS)) {
  test(`${b.label} carries no float-formatting panic message`, () => {
    const wasm = sizes(page).files.find((f) => f.endsWith('.wasm'));
    const text = fs.readFileSync(path.join(DIST, wasm), 'latin1');
    assert.ok(!text.includes('either was NaN'),
      `${wasm} has f32::clamp's panic message ("min > max, or either was NaN. min = {:?}…"): use view::geometry::within`);
  });
}
