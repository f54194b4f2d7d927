#!/usr/bin/env bash
# Builds the deployable site into dist/: the lean first bundle (index.html: ZooKeeper only,
# a standalone server), the full bundle (full.html: plus Redis, etcd, SQL, the ensemble,
# Redlock, compare mode and the requirements matrix), which the lean page hands over to when
# asked, and the studio bundle (studio.html: plus the animated export and the lesson editor,
# which both hand over to), then the posters of the first two (scripts/posters.mjs). Release
# builds, by scripts/bundle.mjs (what `trunk build` does, from the same pages, without compiling Trunk).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
t0=$(date +%s)
took() { echo "build: $1 done at $(( $(date +%s) - t0 )) s"; }
rm -rf dist
node scripts/bundle.mjs index.html dist
node scripts/bundle.mjs full.html dist --as full.html
node scripts/bundle.mjs studio.html dist --as studio.html
took "the three bundles"
# Posters of the lean page's first paints (issue 22), taken in headless Chromium; without a
# Chromium the site works as before, only without them.
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  node scripts/posters.mjs dist
  took "the posters"
  # Link previews: a page with Open Graph tags and a picture per preset and chapter (issue 53).
  node scripts/share.mjs dist
  took "the link-preview pages"
else
  echo "posters: skipped (no Chromium at ${CHROMIUM:-/usr/bin/chromium}; scripts/setup.sh test installs it)"
fi
ls -l dist/*.wasm
