#!/usr/bin/env bash
# Runs every check: installs what the tests need, then ruff, mypy --strict and pytest.
# Extra arguments go to pytest, e.g. `scripts/test.sh tests/togyz -x`.
source "$(dirname "$0")/_env.sh"
ensure_venv "test"
if [ -d "$ROOT/tests/browser" ]; then ensure_chromium; fi
ensure_services
cd "$ROOT"
echo "==> ruff"
"$VENV/bin/ruff" check .
echo "==> mypy --strict"
"$VENV/bin/mypy"
echo "==> pytest"
"$VENV/bin/pytest" "$@"
