#!/usr/bin/env bash
# Set up (first time only) and start the app on http://127.0.0.1:5000 with the bundled mazes.
# Extra arguments go to `run.py serve`, e.g. `bash scripts/run.sh --port 8000`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh requirements.txt
exec .venv/bin/python run.py serve "$@"
