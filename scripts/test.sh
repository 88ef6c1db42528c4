#!/usr/bin/env bash
# Set up (first time only) and run the whole test suite: unit, live layer, CLI and headless-browser tests.
# Browser tests need Debian's Chromium at /usr/bin/chromium (`apt-get install chromium`); without it
# they are skipped with that reason. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh requirements-dev.txt
exec .venv/bin/python -m pytest "$@"
