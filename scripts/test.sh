#!/usr/bin/env bash
# The one command that installs what the tests need and runs the whole suite:
#   bash scripts/test.sh [extra pytest arguments]
# It creates .venv with requirements-dev.txt (scripts/_venv.sh), installs Debian's
# Chromium and a CJK font (fonts-noto-cjk) for the browser tests and HAProxy for the
# deployment tests (tests/deploy) when they are missing, lints, and runs pytest.
# CI (.ci/run) calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    echo "== installing Debian's chromium for the browser tests"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
# The Chinese pages in the browser tests need a CJK font (else: tofu boxes). grep reads all
# of fc-list (no -q): under pipefail, an early exit would fail fc-list with SIGPIPE.
if ! fc-list : family 2>/dev/null | grep -i "Noto Sans CJK" >/dev/null; then
    echo "== installing Debian's fonts-noto-cjk for the Chinese pages in the browser tests"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-noto-cjk >/dev/null
fi
if [ ! -x /usr/sbin/haproxy ]; then
    echo "== installing Debian's haproxy for the deployment tests"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq haproxy >/dev/null
fi

source scripts/_venv.sh
ensure_venv requirements-dev.txt

# The real USPS digits: tests read them from KPCA_USPS_PATH; default to the copy
# that sits beside the repository in the workplace when there is one.
if [ -z "${KPCA_USPS_PATH:-}" ] && [ -f ../shared/data/usps/usps.npz ]; then
    export KPCA_USPS_PATH="$(cd ../shared/data/usps && pwd)/usps.npz"
fi

echo "== ruff"
.venv/bin/python -m ruff check .
echo "== pytest"
.venv/bin/python -m pytest "$@"
