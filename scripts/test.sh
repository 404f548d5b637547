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
if [ ! -x /usr/bin/redis-server ]; then
    echo "== installing Debian's redis-server for the class store's tests"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
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

# pytest-xdist: two workers (KPCA_TEST_WORKERS), each test file on one worker (module
# fixtures stay shared; servers take free ports). Tests that measure time or load (marked
# `solo` in tests/conftest.py) run after, alone. Every run names its slowest tests.
WORKERS="${KPCA_TEST_WORKERS:-2}"
PYTEST=(.venv/bin/python -m pytest --durations=25)
if [ "${1:-}" = "--quick" ]; then
    shift
    export KPCA_SWEEPS=sample  # a sample of each property sweep (tests/conftest.py)
    echo "== pytest, quick: not slow, not browser, sweeps sampled, $WORKERS workers"
    exec "${PYTEST[@]}" -n "$WORKERS" --dist loadfile -m "not slow and not browser and not solo" "$@"
fi
for arg in "$@"; do
    if [[ "$arg" == -m* ]]; then  # the caller chose by marker: one parallel run of that
        echo "== pytest, $WORKERS workers"
        exec "${PYTEST[@]}" -n "$WORKERS" --dist loadfile "$@"
    fi
done
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
echo "== pytest, part 1 of 2: $WORKERS workers"
"${PYTEST[@]}" -n "$WORKERS" --dist loadfile -m "not solo" "$@" | tee -a "$log" || status=$?
echo "== pytest, part 2 of 2: what measures time or load, alone"
"${PYTEST[@]}" -m solo "$@" | tee -a "$log" || { code=$?; [ "$code" -eq 5 ] || status=$code; }
[ "$status" -eq 5 ] && status=0  # part 1 selected nothing (e.g. a path of solo tests only)
# Both parts' counts, on the closing line.
.venv/bin/python - "$log" <<'PY'
import re, sys
totals = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if line.startswith("=") and " in " in line and re.search(r"\d+ (passed|failed|error)", line):
        for count, word in re.findall(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)", line):
            word = "errors" if word.startswith("error") else word
            totals[word] = totals.get(word, 0) + int(count)
print("both parts: " + ", ".join(f"{n} {w}" for w, n in sorted(totals.items())))
get = totals.get
print(f"total: {get('passed', 0)} passed, {get('failed', 0) + get('errors', 0)} failed, "
      f"{get('skipped', 0) + get('xfailed', 0)} skipped")
PY
exit "$status"
