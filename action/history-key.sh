#!/usr/bin/env bash
# The cache key the run history (the history input) is kept under across workflow runs: one per workflow and
# target, so that the jobs of a matrix of deployments keep a history each. Nothing is written when no history is
# kept. The restore step takes the newest entry of the key; the save step writes one per run attempt, as a
# cache entry cannot be overwritten.
set -uo pipefail
[ -n "${INPUT_HISTORY:-}" ] || exit 0
# shellcheck source=names.sh
source "$GITHUB_ACTION_PATH/action/names.sh"
target=$(target_name)
if [[ ${INPUT_ARTIFACT_NAME:-} =~ ^[A-Za-z0-9._-]{1,100}$ ]]; then target=$INPUT_ARTIFACT_NAME; fi
printf 'history-key=conformance-history-%s-%s\n' "$(slug "${GITHUB_WORKFLOW:-workflow}")" "${target:-target}" >>"$GITHUB_OUTPUT"
