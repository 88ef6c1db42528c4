#!/usr/bin/env bash
# Set up a fresh clone: a virtual environment with the pinned packages, and the pinned Socket.IO
# browser client and Pyodide fetched from the npm registry and checked by sha256 (no third-party code is
# committed).
# Safe to run again: each step is skipped when it is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

REQS=${1:-requirements.txt}
PY=${PYTHON:-python3}
SIO_VERSION=4.8.1
SIO_TGZ_SHA256=e39a4baa07488a5cfe10de424bc8646ed897f5dbd318312a852ff74570e47e01
SIO_JS_SHA256=f0524c2523ebbf63d3d51cee565acad8d8b62a7ae0c517e116786d76ed6f40ad
PYODIDE_VERSION=314.0.7
PYODIDE_TGZ_SHA256=66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0
AXE_VERSION=4.14.1
AXE_TGZ_SHA256=e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PY" -m venv .venv
fi
stamp=".venv/.installed-$(cat requirements*.txt | sha256sum | cut -c1-16)-$(basename "$REQS")"
if [ ! -f "$stamp" ]; then
  echo "setup: installing $REQS"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r "$REQS"
  touch "$stamp"
fi

# The grading sandbox (server/sandbox.py, docs/DEPLOY.md "The grading sandbox"): students' code is graded
# only inside bubblewrap, from Debian. Installed here when missing and we may; else said how.
if [ ! -x /usr/bin/bwrap ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing bubblewrap from Debian (the grading sandbox)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null
  else
    echo "setup: bubblewrap is missing; code is not graded without it: sudo apt-get install bubblewrap" >&2
  fi
fi

js=static/vendor/socket.io.msgpack.min.js
if [ ! -f "$js" ] || ! echo "$SIO_JS_SHA256  $js" | sha256sum --check --status; then
  echo "setup: fetching socket.io-client@$SIO_VERSION from the npm registry"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "socket.io-client@$SIO_VERSION" >/dev/null)
  echo "$SIO_TGZ_SHA256  $tmp/socket.io-client-$SIO_VERSION.tgz" | sha256sum --check --status \
    || { echo "setup: checksum mismatch for socket.io-client-$SIO_VERSION.tgz" >&2; exit 1; }
  tar -xzf "$tmp/socket.io-client-$SIO_VERSION.tgz" -C "$tmp" package/dist/socket.io.msgpack.min.js
  mkdir -p static/vendor
  cp "$tmp/package/dist/socket.io.msgpack.min.js" "$js"
  rm -rf "$tmp"
  echo "$SIO_JS_SHA256  $js" | sha256sum --check --status || { echo "setup: bad $js" >&2; exit 1; }
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
  echo "setup: fetching pyodide@$PYODIDE_VERSION from the npm registry (6.5 MB)"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "pyodide@$PYODIDE_VERSION" >/dev/null)
  echo "$PYODIDE_TGZ_SHA256  $tmp/pyodide-$PYODIDE_VERSION.tgz" | sha256sum --check --status \
    || { echo "setup: checksum mismatch for pyodide-$PYODIDE_VERSION.tgz" >&2; exit 1; }
  files=$(echo "$pyodide_sums" | awk '{print "package/" $2}')
  # shellcheck disable=SC2086  # one name per word
  tar -xzf "$tmp/pyodide-$PYODIDE_VERSION.tgz" -C "$tmp" $files
  rm -rf "$pyodide_dir"
  mkdir -p "$pyodide_dir"
  cp "$tmp"/package/* "$pyodide_dir"/
  rm -rf "$tmp"
  (cd "$pyodide_dir" && echo "$pyodide_sums" | sha256sum --check --status) \
    || { echo "setup: a file of $pyodide_dir does not match its sha256" >&2; exit 1; }
fi

# axe-core (https://github.com/dequelabs/axe-core, licence MPL-2.0): the accessibility rules the browser
# tests run over every state of the page (tests/e2e/test_axe.py injects it; the page itself never loads
# it). Fetched from the npm registry like the client above, the tarball checked by sha256; only axe.min.js
# and its LICENSE are kept, in static/vendor/axe-core/ (git-ignored).
axe_dir=static/vendor/axe-core
axe_sums="29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c  axe.min.js
af175b9d96ee93c21a036152e1b905b0b95304d4ae8c2c921c7609100ba8df7e  LICENSE"
if ! (cd "$axe_dir" 2>/dev/null && echo "$axe_sums" | sha256sum --check --status); then
  echo "setup: fetching axe-core@$AXE_VERSION from the npm registry (for the browser tests)"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "axe-core@$AXE_VERSION" >/dev/null)
  echo "$AXE_TGZ_SHA256  $tmp/axe-core-$AXE_VERSION.tgz" | sha256sum --check --status \
    || { echo "setup: checksum mismatch for axe-core-$AXE_VERSION.tgz" >&2; exit 1; }
  tar -xzf "$tmp/axe-core-$AXE_VERSION.tgz" -C "$tmp" package/axe.min.js package/LICENSE
  rm -rf "$axe_dir"
  mkdir -p "$axe_dir"
  cp "$tmp"/package/axe.min.js "$tmp"/package/LICENSE "$axe_dir"/
  rm -rf "$tmp"
  (cd "$axe_dir" && echo "$axe_sums" | sha256sum --check --status) \
    || { echo "setup: a file of $axe_dir does not match its sha256" >&2; exit 1; }
fi

# Compile the numba kernels once (cached beside them), so the first search in the page does not wait
# for the compiler. Redone when the kernels' source changes.
kstamp=".venv/.kernels-$(cat server/puzzles/grid/kernels.py server/puzzles/grid/kernel_search.py server/puzzles/grid/tile_kernels.py | sha256sum | cut -c1-16)"
if [ ! -f "$kstamp" ]; then
  echo "setup: compiling the search kernels (once; about a minute)"
  .venv/bin/python -c "from server.puzzles.grid.precompile import compile_all; print(f'setup: kernels ready in {compile_all():.0f} s')"
  rm -f .venv/.kernels-*
  touch "$kstamp"
fi

# The 15-puzzle's pattern databases (33.6 MB in var/pdb/, about 20 s and up to 0.75 GB while they are
# built, once per machine): built here so that no search in the served app pays for them.
if ! .venv/bin/python -c "from server.puzzles.sliding.pdb import cached; raise SystemExit(not cached(4, 0))"; then
  echo "setup: building the 15-puzzle's pattern databases (once; about 20 s)"
  .venv/bin/python -c "from server.puzzles.sliding.pdb import main; main()" > /dev/null
  echo "setup: pattern databases ready in $(.venv/bin/python -c 'from server.puzzles.sliding.pdb import pdb_dir; print(pdb_dir())')"
fi
