// Post-build step for dist/: minifies the wasm-bindgen JS glue with terser (Trunk 0.21's own
// minifier gives up on `export default`) and updates the pages' subresource-integrity hashes to
// match; marks the stylesheets `crossorigin`, because inside a sandboxed iframe (an opaque
// origin) an integrity-checked stylesheet must be fetched with CORS or it is blocked.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { minify } from 'terser';

const dist = path.resolve(process.argv[2] ?? 'dist');
const pages = fs.readdirSync(dist).filter((f) => f.endsWith('.html'));
for (const js of fs.readdirSync(dist).filter((f) => /^lockstep-[0-9a-f]+\.js$/.test(f))) {
  const file = path.join(dist, js);
  const before = fs.readFileSync(file, 'utf8');
  const sri = (text) => `sha384-${crypto.createHash('sha384').update(text).digest('base64')}`;
  const out = await minify(before, { module: true, compress: { passes: 2 }, mangle: true });
  fs.writeFileSync(file, out.code);
  for (const page of pages) {
    const p = path.join(dist, page);
    const html = fs.readFileSync(p, 'utf8');
    if (html.includes(sri(before))) fs.writeFileSync(p, html.replaceAll(sri(before), sri(out.code)));
  }
  console.log(`${js}: ${before.length} → ${out.code.length} B`);
}
for (const page of pages) {
  const p = path.join(dist, page);
  const html = fs.readFileSync(p, 'utf8');
  fs.writeFileSync(p, html.replace(/<link (?![^>]*crossorigin)([^>]*rel=stylesheet)/g, '<link crossorigin $1'));
}
