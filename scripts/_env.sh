# Shared by scripts/serve.sh and scripts/test.sh: a project-local virtual environment,
# reinstalled only when pyproject.toml, hatch_build.py or the engine's C source change (the stamp holds their
# hash and the extras).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

ensure_venv() {
    local extras="$1"
    local python="${PYTHON:-python3}"
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "toreshi needs Python 3.11 or newer; '$python' is $("$python" --version 2>&1)" >&2
        exit 2
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        echo "==> creating $VENV"
        "$python" -m venv "$VENV"
    fi
    local want
    # The C search is compiled at install time, so its source is part of what the stamp covers.
    want="$(cat "$ROOT/pyproject.toml" "$ROOT/hatch_build.py" "$ROOT/src/toreshi/togyz/engine/_native.c" \
        | sha256sum | cut -d' ' -f1) [$extras]"
    if [ "$(cat "$VENV/.install-stamp" 2>/dev/null)" != "$want" ]; then
        echo "==> installing toreshi${extras:+[$extras]} into $VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
        "$VENV/bin/python" -m pip install --quiet -e "$ROOT${extras:+[$extras]}"
        echo "$want" > "$VENV/.install-stamp"
        native_search_note "$VENV/bin/python"
    fi
}

# pip --quiet hides the build's warning: say it here when the togyz engine's C search was not built.
native_search_note() {
    if ! "$1" -c 'import sys; from toreshi.togyz.engine.search import NATIVE; sys.exit(not NATIVE)' 2>/dev/null; then
        echo "!! the togyz engine's C search was not built (no C compiler or Python headers): it searches in pure" \
            "Python, slower. For the C search: apt-get install gcc python3-dev, then rm $VENV/.install-stamp" >&2
    fi
}

# Debian's Chromium for the browser tests (Playwright drives it through executable_path;
# no browser download). Needs root or sudo; skipped with a message otherwise.
ensure_chromium() {
    if command -v chromium >/dev/null 2>&1; then return 0; fi
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "!! chromium is missing and this user cannot install it: browser tests will be skipped" >&2
            return 0
        fi
    fi
    echo "==> installing Debian's chromium for the browser tests"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}

# PostgreSQL and Redis for the scale-out tests; started if they are installed but down.
ensure_services() {
    if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
        echo "==> starting PostgreSQL"
        for v in /etc/postgresql/*; do
            pg_ctlcluster --skip-systemctl-redirect "$(basename "$v")" main start || true
        done
    fi
    if command -v redis-server >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
        echo "==> starting Redis"
        mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
        redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
            --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
    fi
}
