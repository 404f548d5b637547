# Sourced by run_app.sh and test.sh: make sure .venv exists and has $1 installed.
# Debian's system Python refuses global pip installs (PEP 668), hence the venv;
# a fresh Debian also lacks the venv module until python3-venv is installed.
ensure_venv() {
    local requirements="$1"
    if [ ! -x .venv/bin/python ]; then
        if ! python3 -m venv .venv 2>/dev/null; then
            echo "== installing python3-venv"
            local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
            $sudo apt-get update -qq
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
            rm -rf .venv
            python3 -m venv .venv
        fi
    fi
    echo "== installing $requirements"
    .venv/bin/python -m pip install -q --disable-pip-version-check -r "$requirements"
}
