#!/usr/bin/env bash
# Lint and type-check the browser code (static/js) with the tools pinned in package.json /
# package-lock.json: ESLint (eslint.config.js) and tsc on the files that begin with `// @ts-check`
# (tsconfig.json). Installs the pinned tools first when node_modules is absent or the lock file has
# changed (`npm ci`, from the npm registry). Runs both checks, then prints one summary line and exits
# non-zero if either found an error. `--install-only` installs and stops (used by tests/test_js_lint.py).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v npm >/dev/null 2>&1 || { echo "lint_js: npm is not installed (apt-get install npm)" >&2; exit 1; }

# npm ci empties node_modules first, so a stamp inside it cannot outlive the install it records.
stamp="node_modules/.installed-$(cat package.json package-lock.json | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "lint_js: installing the pinned ESLint and TypeScript (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi
[ "${1:-}" = "--install-only" ] && exit 0

# The pinned binaries themselves (what `npx eslint` / `npx tsc` run here), never a registry fetch.
start=$SECONDS
failed=()
echo "lint_js: eslint static/js tests/js"
node_modules/.bin/eslint --max-warnings=0 static/js tests/js || failed+=("eslint")
echo "lint_js: tsc -p tsconfig.json (the files that begin with // @ts-check)"
node_modules/.bin/tsc -p tsconfig.json || failed+=("tsc")
took=$((SECONDS - start))
if [ ${#failed[@]} -gt 0 ]; then
  echo "lint_js: FAILED: ${failed[*]} reported errors in static/js (${took} s)" >&2
  exit 1
fi
echo "lint_js: ok: eslint and tsc found no errors in static/js (${took} s)"
