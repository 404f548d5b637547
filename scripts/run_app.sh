#!/usr/bin/env bash
# Install the runtime requirements into .venv and start the app:
#   bash scripts/run_app.sh [streamlit options, e.g. --server.port 8502]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv requirements.txt
# Two malloc arenas, so that the memory a closed session frees can go back to the system
# (glibc reads this before the server starts its threads; server/memory.py explains).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec .venv/bin/python -m streamlit run app.py "$@"
