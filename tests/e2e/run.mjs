// Runs every browser test (tests/e2e/*.test.mjs) with node's test runner.
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
if (!fs.existsSync(path.join(dir, '../../dist/index.html'))) {
  console.error('dist/ is missing: run scripts/build.sh first (scripts/test.sh does).');
  process.exit(2);
}
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.test.mjs')).map((f) => path.join(dir, f));
let failed = 0; let passed = 0;
// A test that waits for something that never comes fails after 5 minutes instead of holding
// CI until its own limit.
const stream = run({ files, concurrency: 1, timeout: 5 * 60 * 1000 });
stream.on('test:fail', (e) => { if (e.details?.type !== 'suite') failed += 1; });
stream.on('test:pass', (e) => { if (e.details?.type !== 'suite') passed += 1; });
stream.compose(spec).pipe(process.stdout);
stream.on('end', () => {
  console.log(`\ne2e: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
});
