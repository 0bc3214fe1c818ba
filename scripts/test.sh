#!/usr/bin/env bash
# Runs every check: installs what the tests need, then ruff, mypy --strict, the layer contracts and pytest.
# Extra arguments go to pytest, e.g. `scripts/test.sh tests/togyz -x`.
source "$(dirname "$0")/_env.sh"
ensure_venv "test"
if [ -d "$ROOT/tests/browser" ]; then ensure_chromium; fi
ensure_services
cd "$ROOT"
echo "==> ruff"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
echo "==> mypy --strict"
"$VENV/bin/mypy"
echo "==> import-linter (the layers of docs/architecture.md)"
"$VENV/bin/lint-imports" --no-cache
echo "==> pytest"
# Two worker processes, a test file each at a time (its module's server and browser stay in one process): most
# browser and cluster tests wait on sockets and timers, so two files at once take about two thirds of the time of one
# after the other on a 2-core machine. TORESHI_TEST_WORKERS=0 runs everything in this process.
"$VENV/bin/pytest" -n "${TORESHI_TEST_WORKERS:-2}" --dist loadfile --durations=15 "$@"
