// Each bundle stays under its ceiling (gzip -9 of wasm + JS + CSS); the message names the sizes,
// the ceiling and the goal still ahead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUDGETS, sizes } from './sizes.mjs';

for (const [page, b] of Object.entries(BUDGETS)) {
  test(`${b.label} stays under its ceiling`, () => {
    const s = sizes(page);
    assert.ok(s.gz <= b.ceiling,
      `${b.label}: ${s.gz} B gzip is over its ceiling of ${b.ceiling} B by ${s.gz - b.ceiling} B (goal ${b.goal} B; files ${s.files.join(', ')})`);
    console.log(`${b.label}: ${s.gz} B gzip, ceiling ${b.ceiling} B, goal ${b.goal} B (${s.gz - b.goal} B to go)`);
  });
}
