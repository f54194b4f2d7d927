// Trunk.toml keeps Trunk's output out of dist/: dist/ is the two-page site scripts/build.sh
// makes (what `npm run bench`, the e2e tests and a deploy read), and a `trunk serve` or
// `trunk clean` must leave it alone.
//   node --test tests/node/trunk.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** `section.key` → string value, for the flat `key = "value"` lines of a TOML file. */
function tomlStrings(text) {
  const out = new Map();
  let section = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    const s = line.match(/^\[([^\]]+)\]$/);
    if (s) section = `${s[1]}.`;
    const kv = line.match(/^([\w-]+)\s*=\s*"([^"]*)"/);
    if (kv) out.set(section + kv[1], kv[2]);
  }
  return out;
}

test("Trunk builds and cleans its own folder under target/, not scripts/build.sh's dist/", () => {
  const conf = tomlStrings(fs.readFileSync(path.join(ROOT, 'Trunk.toml'), 'utf8'));
  // Trunk 0.21: `[build] dist` is where build and serve write (default "dist"); the top-level
  // `dist` is what `trunk clean` removes (default "dist" too).
  for (const key of ['build.dist', 'dist']) {
    const dir = conf.get(key);
    assert.ok(dir, `Trunk.toml sets ${key} (its default is dist/)`);
    const rel = path.relative(ROOT, path.resolve(ROOT, dir));
    assert.ok(rel.startsWith(`target${path.sep}`), `${key} = ${dir}: not under target/ (which git ignores)`);
  }
  assert.equal(conf.get('dist'), conf.get('build.dist'), '`trunk clean` removes what Trunk built');
});

test('trunk serve sends Access-Control-Allow-Origin, so a sandboxed embed can load its module', () => {
  const text = fs.readFileSync(path.join(ROOT, 'Trunk.toml'), 'utf8');
  const serve = text.slice(text.indexOf('[serve]'));
  assert.match(serve, /^headers\s*=\s*\{\s*"Access-Control-Allow-Origin"\s*=\s*"\*"\s*\}/m,
    'Trunk.toml [serve] headers: a sandbox="allow-scripts" frame has an opaque origin and fetches its module with CORS');
});
