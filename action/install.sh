#!/usr/bin/env bash
# The action's own checkout is the suite: its runtime dependencies are installed there, once per job.
set -euo pipefail
cd "$GITHUB_ACTION_PATH"
if [ ! -d node_modules/@playwright/test ]; then
  npm ci --omit=dev --no-audit --no-fund
fi
