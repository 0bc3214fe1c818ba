#!/usr/bin/env bash
# Runs toreshi with the embedded defaults (SQLite in ./data, in-process bus).
# Extra arguments go to `toreshi serve`, e.g. `scripts/serve.sh --host 0.0.0.0`.
source "$(dirname "$0")/_env.sh"
ensure_venv ""
exec "$VENV/bin/toreshi" serve "$@"
