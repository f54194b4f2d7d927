// Builds one page of the site the way `trunk build` does, without Trunk: reads the page's
// `<link data-trunk …>` tags (the same source Trunk reads, so `trunk serve` keeps working),
// compiles the wasm with cargo, runs wasm-bindgen and wasm-opt, minifies JS (terser) and CSS
// (csso), names every asset by a hash of its content, and writes the page with
// subresource-integrity hashes. Why not Trunk itself: compiling it costs 4-5 minutes of a fresh
// machine's 2 cores, more than the whole 5-minute budget to a first page (README, "Set-up").
//
//   node scripts/bundle.mjs PAGE.html OUT_DIR [--as NAME.html] [--dev] [--reload]
//     --dev     debug build, no wasm-opt or minifying (fast rebuilds, a 13 MB .wasm)
//     --reload  adds the live-reload listener scripts/serve.mjs answers
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { minify } from 'terser';
import { minify as minifyCss } from 'csso';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Parses `KEY="value"` / bare-attribute lists of one tag. */
export function attributes(tag) {
  const out = {};
  for (const m of tag.matchAll(/([\w-]+)(?:\s*=\s*"([^"]*)")?/g)) out[m[1]] = m[2] ?? '';
  return out;
}

const hash = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
const sri = (bytes) => `sha384-${crypto.createHash('sha384').update(bytes).digest('base64')}`;

function run(cmd, args) {
  execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Writes `bytes` as `stem-HASH.ext` in `out`; returns the file name. */
function emit(out, stem, ext, bytes) {
  const name = `${stem}-${hash(bytes)}${ext}`;
  fs.writeFileSync(path.join(out, name), bytes);
  return name;
}

/** cargo → wasm-bindgen → wasm-opt → terser: returns the JS and wasm file names. */
async function rust(a, out, release) {
  const bin = a['data-bin'] ?? 'lockstep';
  const cargo = ['build', '--locked', '--offline', '--target', 'wasm32-unknown-unknown', '--bin', bin];
  if (release) cargo.push('--release');
  if ('data-cargo-no-default-features' in a) cargo.push('--no-default-features');
  if (a['data-cargo-features']) cargo.push('--features', a['data-cargo-features']);
  run('cargo', cargo);
  const wasm = path.join(root, 'target/wasm32-unknown-unknown', release ? 'release' : 'debug', `${bin}.wasm`);
  const name = `${bin}-${hash(fs.readFileSync(wasm))}`;
  const files = { js: `${name}.js`, wasm: `${name}_bg.wasm` };
  // The same cargo output gives the same bundle: a change to CSS or HTML alone skips
  // wasm-bindgen and wasm-opt (a release wasm-opt takes 15-30 s).
  const how = hash(JSON.stringify([release, a['data-wasm-opt'], a['data-wasm-opt-params']]));
  const caches = path.join(root, 'target', 'bundle-cache');
  const cache = path.join(caches, `${name}-${how}`);
  if (!fs.existsSync(path.join(cache, files.wasm))) {
    const staging = fs.mkdtempSync(path.join(root, 'target', 'bundle-'));
    try {
      glue(a, wasm, staging, name, release);
      let js = fs.readFileSync(path.join(staging, files.js), 'utf8');
      // Trunk 0.21's own minifier gives up on `export default`; terser does not.
      if (release) js = (await minify(js, { module: true, compress: { passes: 2 }, mangle: true })).code;
      fs.writeFileSync(path.join(staging, files.js), js);
      fs.rmSync(cache, { recursive: true, force: true });
      fs.mkdirSync(caches, { recursive: true });
      fs.renameSync(staging, cache);
      prune(caches, 8);
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  for (const f of Object.values(files)) fs.copyFileSync(path.join(cache, f), path.join(out, f));
  return files;
}

/** Keeps the `keep` newest entries of a cache folder. */
function prune(dir, keep) {
  const entries = fs.readdirSync(dir).map((n) => [n, fs.statSync(path.join(dir, n)).mtimeMs]);
  entries.sort((x, y) => y[1] - x[1]);
  for (const [n] of entries.slice(keep)) fs.rmSync(path.join(dir, n), { recursive: true, force: true });
}

/** wasm-bindgen, then wasm-opt at the page's level (release builds only). */
function glue(a, wasm, staging, name, release) {
  run('wasm-bindgen', ['--target=web', `--out-dir=${staging}`, `--out-name=${name}`, '--no-typescript', wasm]);
  const bg = path.join(staging, `${name}_bg.wasm`);
  const level = a['data-wasm-opt'];
  if (release && level && level !== '0' && level !== 'off') {
    const params = (a['data-wasm-opt-params'] ?? '').split(/\s+/).filter(Boolean);
    run('wasm-opt', [`--output=${bg}`, `-O${level}`, bg, ...params]);
  }
}

function copyDir(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const [f, t] = [path.join(from, e.name), path.join(to, e.name)];
    if (e.isDirectory()) copyDir(f, t);
    else fs.copyFileSync(f, t);
  }
}

/** The tags that replace one `data-trunk` link. */
async function asset(tag, out, release) {
  const a = attributes(tag);
  const file = (name) => fs.readFileSync(path.join(out, name));
  const source = a.href && path.join(root, a.href);
  const { name: stem, ext } = a.href ? path.parse(a.href) : {};
  switch (a.rel) {
    case 'rust': {
      const { js, wasm } = await rust(a, out, release);
      return [
        `<script type="module">import init from './${js}'; await init({ module_or_path: './${wasm}' });</script>`,
        `<link rel="modulepreload" href="./${js}" crossorigin integrity="${sri(file(js))}">`,
        `<link rel="preload" href="./${wasm}" as="fetch" type="application/wasm" crossorigin integrity="${sri(file(wasm))}">`,
      ].join('\n');
    }
    case 'css': {
      let css = fs.readFileSync(source, 'utf8');
      if (release) css = minifyCss(css, { restructure: false }).css;
      const name = emit(out, stem, ext, css);
      // Inside a sandboxed iframe (an opaque origin) an integrity-checked stylesheet must be
      // fetched with CORS or it is blocked.
      return `<link rel="stylesheet" href="./${name}" crossorigin integrity="${sri(css)}">`;
    }
    case 'icon': {
      const bytes = fs.readFileSync(source);
      const name = emit(out, stem, ext, bytes);
      const type = a.type ? ` type="${a.type}"` : '';
      return `<link rel="icon" href="./${name}"${type} integrity="${sri(bytes)}">`;
    }
    case 'inline': {
      // As Trunk's inline pipeline: the file's text in place (left as written: the poster
      // loader's `var P = {};` is where scripts/posters.mjs writes its list).
      if ((a.type ?? ext.slice(1)) !== 'js') throw new Error(`bundle: inline ${a.href}: only js is supported`);
      return `<script>\n${fs.readFileSync(source, 'utf8')}</script>`;
    }
    case 'copy-dir':
      copyDir(source, path.join(out, path.basename(source)));
      return '';
    default:
      throw new Error(`bundle: unsupported <link data-trunk rel="${a.rel}">`);
  }
}

/** Builds `page` into `out`; returns the written page's path. */
export async function bundle(page, out, { as = path.basename(page), release = true, reload = false } = {}) {
  fs.mkdirSync(out, { recursive: true });
  let html = fs.readFileSync(path.join(root, page), 'utf8');
  for (const tag of html.match(/<link\s+data-trunk\b[^>]*>/g) ?? []) {
    html = html.replace(tag, await asset(tag, out, release));
  }
  if (reload) {
    const listen = "new EventSource('/__lockstep_reload').onmessage = () => location.reload();";
    html = html.replace('</body>', `<script>${listen}</script>\n</body>`);
  }
  const target = path.join(out, as);
  fs.writeFileSync(target, html);
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = (f) => args.includes(f);
  const value = (f) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);
  const [page, out] = args.filter((x, i) => !x.startsWith('--') && args[i - 1] !== '--as');
  if (!page || !out) {
    console.error('usage: node scripts/bundle.mjs PAGE.html OUT_DIR [--as NAME.html] [--dev] [--reload]');
    process.exit(2);
  }
  const t = Date.now();
  const written = await bundle(page, path.resolve(out), { as: value('--as'), release: !flag('--dev'), reload: flag('--reload') });
  console.log(`bundle: ${path.relative(root, written)} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
