#!/usr/bin/env bash
# Build the notebook widget's bundle (issue 33; server/notebook/ loads them as its anywidget's _esm
# and _css): static/build/widget.js, the entry static/js/notebook/widget.js with the page's modules it
# imports, bundled by esbuild (pinned in package.json) as one ES module; and static/build/widget.css,
# the page's styles (static/css/app.css) scoped under `.mazeviz-widget` so they style the widget and
# nothing else of JupyterLab, plus the widget's own (static/js/notebook/widget.css).
#
# The scoping: app.css wrapped in one CSS-nesting rule `.mazeviz-widget { … }`, its `:root`, `html`
# and `body` selectors made `&` (the widget's root is the page's root), its @keyframes lifted out of
# the wrapper (they cannot nest) and renamed `mazeviz-…` (keyframe names are global: a Lab's own
# `spin` stays Lab's); then esbuild lowers the nesting to flat selectors (`.mazeviz-widget .board`)
# for the browsers of --target, so an older notebook front end (Electron in VS Code) reads it too.
# @media and @container rules nest as they are.
#
# Installs the pinned node tools (`npm ci`) when esbuild is missing. Run by scripts/setup.sh and by
# the wheel's build.
set -euo pipefail
cd "$(dirname "$0")/.."

out=static/build
# Up to date (both files newer than every input): nothing to do, so setup.sh may call this every time.
if [ "${1:-}" != "--force" ] && [ -f "$out/widget.js" ] && [ -f "$out/widget.css" ] \
  && [ -z "$(find static/js static/css static/i18n scripts/build_widget.sh -newer "$out/widget.js" -print -quit)" ] \
  && [ -z "$(find static/js static/css static/i18n scripts/build_widget.sh -newer "$out/widget.css" -print -quit)" ]; then
  exit 0
fi

command -v node >/dev/null 2>&1 || { echo "build_widget: node is not installed (apt-get install nodejs npm)" >&2; exit 1; }
if [ ! -x node_modules/.bin/esbuild ]; then
  # npm ci empties node_modules first: through a symlink (a worktree sharing another's) it would empty
  # the other checkout's tools.
  if [ -L node_modules ]; then
    echo "build_widget: esbuild is missing and node_modules is a symlink; run npm ci where it points" >&2
    exit 1
  fi
  echo "build_widget: installing the pinned node tools (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node_modules/.bin/esbuild static/js/notebook/widget.js --bundle --format=esm --minify \
  --target=es2022 --log-level=warning --outfile="$out/widget.js"

node - static/css/app.css static/js/notebook/widget.css "$tmp/scoped.css" <<'JS'
const fs = require("fs");
const [appPath, ownPath, outPath] = process.argv.slice(2);
let css = fs.readFileSync(appPath, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
// @keyframes out of the wrapper (a block with its nested braces), renamed.
const lifted = [];
const names = [];
let scoped = "";
for (let i = 0; i < css.length;) {
  const at = css.indexOf("@keyframes", i);
  if (at < 0) { scoped += css.slice(i); break; }
  scoped += css.slice(i, at);
  let depth = 0, j = css.indexOf("{", at);
  for (; j < css.length; j++) {
    if (css[j] === "{") depth++;
    else if (css[j] === "}" && --depth === 0) break;
  }
  const block = css.slice(at, j + 1);
  const name = /@keyframes\s+([\w-]+)/.exec(block)[1];
  names.push(name);
  lifted.push(block.replace(/@keyframes\s+[\w-]+/, `@keyframes mazeviz-${name}`));
  i = j + 1;
}
for (const name of names) {
  scoped = scoped.replace(new RegExp(`(animation(?:-name)?\\s*:[^;{}]*?)\\b${name}\\b`, "g"), `$1mazeviz-${name}`);
}
// The page's root is the widget's root.
scoped = scoped
  .replace(/html\.presenting\s+body\b/g, "&.presenting")
  .replace(/html\s*,\s*body\b/g, "&")
  .replace(/:root\b/g, "&")
  .replace(/(^|[\s,}{;])html(?=[\s.,{:[])/g, "$1&")
  .replace(/(^|[\s,}{;])body(?=[\s.,{:[])/g, "$1&");
const own = fs.readFileSync(ownPath, "utf8");
fs.writeFileSync(outPath, `${lifted.join("\n")}\n.mazeviz-widget {\n${scoped}\n}\n${own}`);
JS

node_modules/.bin/esbuild "$tmp/scoped.css" --bundle --minify --target=chrome100,firefox100,safari15 \
  --log-level=warning --outfile="$out/widget.css"
echo "build_widget: $(wc -c <"$out/widget.js") bytes of $out/widget.js, $(wc -c <"$out/widget.css") bytes of $out/widget.css"
