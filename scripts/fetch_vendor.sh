#!/usr/bin/env bash
# The vendored browser code (no third-party code is committed): the pinned Socket.IO browser client and
# Pyodide, which the page loads, and axe-core, which only the browser tests inject, fetched from the npm
# registry into static/vendor/ and checked by sha256. Each is skipped when its files are there and match.
#   bash scripts/fetch_vendor.sh          all three (scripts/setup.sh)
#   bash scripts/fetch_vendor.sh --page   what the page needs, no axe-core (the wheel's build: setup.py)
set -euo pipefail
cd "$(dirname "$0")/.."

with_axe=1
case "${1:-}" in
  --page) with_axe=0 ;;
  "") ;;
  *) echo "fetch_vendor: unknown argument $1 (use --page or nothing)" >&2; exit 2 ;;
esac

SIO_VERSION=4.8.1
SIO_TGZ_SHA256=e39a4baa07488a5cfe10de424bc8646ed897f5dbd318312a852ff74570e47e01
SIO_JS_SHA256=f0524c2523ebbf63d3d51cee565acad8d8b62a7ae0c517e116786d76ed6f40ad
PYODIDE_VERSION=314.0.7
PYODIDE_TGZ_SHA256=66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0
AXE_VERSION=4.14.1
AXE_TGZ_SHA256=e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745

js=static/vendor/socket.io.msgpack.min.js
if [ ! -f "$js" ] || ! echo "$SIO_JS_SHA256  $js" | sha256sum --check --status; then
  echo "fetch_vendor: fetching socket.io-client@$SIO_VERSION from the npm registry"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "socket.io-client@$SIO_VERSION" >/dev/null)
  echo "$SIO_TGZ_SHA256  $tmp/socket.io-client-$SIO_VERSION.tgz" | sha256sum --check --status \
    || { echo "fetch_vendor: checksum mismatch for socket.io-client-$SIO_VERSION.tgz" >&2; exit 1; }
  tar -xzf "$tmp/socket.io-client-$SIO_VERSION.tgz" -C "$tmp" package/dist/socket.io.msgpack.min.js
  mkdir -p static/vendor
  cp "$tmp/package/dist/socket.io.msgpack.min.js" "$js"
  rm -rf "$tmp"
  echo "$SIO_JS_SHA256  $js" | sha256sum --check --status || { echo "fetch_vendor: bad $js" >&2; exit 1; }
fi

# Pyodide (CPython compiled to WebAssembly; https://pyodide.org, licence MPL-2.0): the student-code
# worker (static/js/code/worker.js) runs the students' Python in their browser with it. Fetched from the
# npm registry like the client above, the tarball checked by sha256, and only the files the worker loads
# kept in static/vendor/pyodide/ (git-ignored; the package ships a README but no LICENSE file). The
# sums of the kept files are the stamp: all present and correct, nothing is fetched.
pyodide_dir=static/vendor/pyodide
pyodide_sums="6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109  pyodide.mjs
f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635  pyodide.asm.mjs
cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6  pyodide.asm.wasm
fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a  python_stdlib.zip
5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010  pyodide-lock.json
7d434f487a81a9ea4944000fbbb5a771da89ca32fd1ff5edca0c5954b90cedec  README.md"
if ! (cd "$pyodide_dir" 2>/dev/null && echo "$pyodide_sums" | sha256sum --check --status); then
  echo "fetch_vendor: fetching pyodide@$PYODIDE_VERSION from the npm registry (6.5 MB)"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "pyodide@$PYODIDE_VERSION" >/dev/null)
  echo "$PYODIDE_TGZ_SHA256  $tmp/pyodide-$PYODIDE_VERSION.tgz" | sha256sum --check --status \
    || { echo "fetch_vendor: checksum mismatch for pyodide-$PYODIDE_VERSION.tgz" >&2; exit 1; }
  files=$(echo "$pyodide_sums" | awk '{print "package/" $2}')
  # shellcheck disable=SC2086  # one name per word
  tar -xzf "$tmp/pyodide-$PYODIDE_VERSION.tgz" -C "$tmp" $files
  rm -rf "$pyodide_dir"
  mkdir -p "$pyodide_dir"
  cp "$tmp"/package/* "$pyodide_dir"/
  rm -rf "$tmp"
  (cd "$pyodide_dir" && echo "$pyodide_sums" | sha256sum --check --status) \
    || { echo "fetch_vendor: a file of $pyodide_dir does not match its sha256" >&2; exit 1; }
fi

# axe-core (https://github.com/dequelabs/axe-core, licence MPL-2.0): the accessibility rules the browser
# tests run over every state of the page (tests/e2e/test_axe.py injects it; the page itself never loads
# it). Fetched from the npm registry like the client above, the tarball checked by sha256; only axe.min.js
# and its LICENSE are kept, in static/vendor/axe-core/ (git-ignored).
if [ "$with_axe" = 1 ]; then
  axe_dir=static/vendor/axe-core
  axe_sums="29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c  axe.min.js
  af175b9d96ee93c21a036152e1b905b0b95304d4ae8c2c921c7609100ba8df7e  LICENSE"
  if ! (cd "$axe_dir" 2>/dev/null && echo "$axe_sums" | sha256sum --check --status); then
    echo "fetch_vendor: fetching axe-core@$AXE_VERSION from the npm registry (for the browser tests)"
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "axe-core@$AXE_VERSION" >/dev/null)
    echo "$AXE_TGZ_SHA256  $tmp/axe-core-$AXE_VERSION.tgz" | sha256sum --check --status \
      || { echo "fetch_vendor: checksum mismatch for axe-core-$AXE_VERSION.tgz" >&2; exit 1; }
    tar -xzf "$tmp/axe-core-$AXE_VERSION.tgz" -C "$tmp" package/axe.min.js package/LICENSE
    rm -rf "$axe_dir"
    mkdir -p "$axe_dir"
    cp "$tmp"/package/axe.min.js "$tmp"/package/LICENSE "$axe_dir"/
    rm -rf "$tmp"
    (cd "$axe_dir" && echo "$axe_sums" | sha256sum --check --status) \
      || { echo "fetch_vendor: a file of $axe_dir does not match its sha256" >&2; exit 1; }
  fi
fi
