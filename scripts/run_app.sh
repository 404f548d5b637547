#!/usr/bin/env bash
# Install the runtime requirements into .venv and start the app:
#   bash scripts/run_app.sh [streamlit options, e.g. --server.port 8502]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv requirements.txt
exec .venv/bin/python -m streamlit run app.py "$@"
