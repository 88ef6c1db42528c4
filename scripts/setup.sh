#!/usr/bin/env bash
# Set up a fresh clone: a virtual environment with the pinned packages, and the pinned Socket.IO
# browser client and Pyodide fetched from the npm registry and checked by sha256 (no third-party code is
# committed).
# Safe to run again: each step is skipped when it is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

REQS=${1:-requirements.txt}
PY=${PYTHON:-python3}

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

# The pinned Socket.IO browser client, Pyodide and axe-core, fetched from the npm registry and checked by
# sha256 into static/vendor/ (git-ignored): scripts/fetch_vendor.sh, which the wheel's build runs too.
bash scripts/fetch_vendor.sh

# The notebook widget's bundle (static/build/widget.js and .css, git-ignored) from the page's modules,
# by esbuild (pinned in package.json): scripts/build_widget.sh, which the wheel's build runs too.
if [ -f scripts/build_widget.sh ]; then
  bash scripts/build_widget.sh
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
