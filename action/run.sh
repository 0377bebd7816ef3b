#!/usr/bin/env bash
# Runs the suite with the action's inputs and records the command's exit code and the verdict of the report this
# run wrote as step outputs. The run's outcome never fails the step itself: the report is uploaded first, and the
# gate step fails the job on the exit code. A stopped step stops the run: the signal is passed on to the command,
# and the step ends with the command's code.
set -uo pipefail

workspace=$PWD
cleanup=()
trap 'rm -rf ${cleanup[@]+"${cleanup[@]}"}' EXIT

# Each output is one line of one known word: nothing read from a file or the workspace reaches GITHUB_OUTPUT as it is.
# The artifact's name is the input's or the target's (below), of letters, digits, '.', '-' and '_' only.
artifact=conformance-report
set_outputs() {
  local code=$1 verdict=$2
  case "$verdict" in pass | fail | error | partial | incomplete | none) ;; *) verdict=none ;; esac
  printf 'exit-code=%s\nverdict=%s\nartifact-name=%s\n' "$code" "$verdict" "$artifact" >>"$GITHUB_OUTPUT"
}

# A configuration the run refused, in the job summary: what was refused, in the one line the log has too.
summarise_refusal() {
  printf '## Conformance: configuration error, nothing was checked\n\n> %s\n' "$1" >>"$GITHUB_STEP_SUMMARY"
}

# A refusal of the action's own inputs: one line, which never quotes an input, exit code 2, and nothing run.
refuse() {
  echo "conformance: configuration error: $1" >&2
  summarise_refusal "$1"
  set_outputs 2 none
  exit 0
}

# The artifact's name, so that two uses of the action in one workflow (a matrix of deployments) upload two artifacts
# rather than collide on one: the artifact-name input, or conformance-report- and the target file's name, or the base
# URL's host, port and path (never its credentials, query or fragment).
# shellcheck source=names.sh
source "$GITHUB_ACTION_PATH/action/names.sh"
if [ -n "${INPUT_ARTIFACT_NAME:-}" ]; then
  [[ $INPUT_ARTIFACT_NAME =~ ^[A-Za-z0-9._-]{1,100}$ ]] || refuse "the artifact-name input may hold letters, digits, '.', '-' and '_' only, at most 100 of them"
  artifact=$INPUT_ARTIFACT_NAME
elif [ -n "${INPUT_TARGET_FILE:-}${INPUT_BASE_URL:-}" ]; then
  artifact=conformance-report-$(target_name)
fi
artifact=${artifact%-}

# The base URL and admin token are always passed on: an empty one (a missing secret) is refused by the
# suite as a configuration error, never mistaken for "no target". With a target file, which may give them, they are
# passed only when given: the suite refuses a run that has none. Optional inputs are passed only when given.
pass_if_given() { if [ -n "$2" ]; then export "$1=$2"; fi; }
if [ -n "${INPUT_TARGET_FILE:-}" ]; then
  export CONFORMANCE_TARGET="$INPUT_TARGET_FILE"
  pass_if_given CONFORMANCE_BASE_URL "$INPUT_BASE_URL"
  pass_if_given CONFORMANCE_ADMIN_TOKEN "$INPUT_ADMIN_TOKEN"
else
  export CONFORMANCE_BASE_URL="$INPUT_BASE_URL"
  export CONFORMANCE_ADMIN_TOKEN="$INPUT_ADMIN_TOKEN"
fi
pass_if_given CONFORMANCE_FORBIDDEN_TOKEN "$INPUT_FORBIDDEN_TOKEN"
pass_if_given CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP "$INPUT_FORBIDDEN_TOKEN_SIGNUP"
pass_if_given CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS "$INPUT_FORBIDDEN_TOKEN_PROJECTS"
pass_if_given CONFORMANCE_SIGNUP_TOKENS "$INPUT_SIGNUP_TOKENS"
pass_if_given CONFORMANCE_DEVIATIONS "$INPUT_DEVIATIONS"
pass_if_given CONFORMANCE_CLAIM "$INPUT_CLAIM"
pass_if_given CONFORMANCE_BASELINE "$INPUT_BASELINE"
pass_if_given CONFORMANCE_GATE "$INPUT_GATE"
pass_if_given CONFORMANCE_HISTORY "${INPUT_HISTORY:-}"
pass_if_given CONFORMANCE_PRODUCT_NAME "${INPUT_PRODUCT_NAME:-}"
pass_if_given CONFORMANCE_PRODUCT_VERSION "${INPUT_PRODUCT_VERSION:-}"
export CONFORMANCE_REPORT_DIR="${INPUT_REPORT_DIR:-conformance-report}"

# The suite reads `.env` in the folder it runs in, and a .env in the workspace may be anyone's who controls the
# checked-out tree: it is read only when the env-file input names it, the suite then running in its folder. A .env
# the action was not told to read has the suite run in an empty folder of the action's own.
run_dir=$workspace
if [ -n "${INPUT_ENV_FILE:-}" ]; then
  [ "$(basename -- "$INPUT_ENV_FILE")" = .env ] || refuse "the env-file input names a file called .env, which the suite reads in the folder it runs in"
  [ -f "$INPUT_ENV_FILE" ] || refuse "the env-file input names no file of the workspace"
  run_dir=$(cd -- "$(dirname -- "$INPUT_ENV_FILE")" && pwd)
elif [ -e .env ] || [ -L .env ]; then
  run_dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/conformance-run.XXXXXX")
  cleanup+=("$run_dir")
  echo "conformance: notice: the workspace's .env is not read; to have it read, name it with the env-file input" >&2
fi

# Relative paths, of the inputs and of the job's own CONFORMANCE_ variables, are the workspace's wherever the suite
# runs. (CONFORMANCE_TARGETS is not among them: its files alone describe their targets, and the action names one.)
from_workspace() { case "$1" in /* | '') printf '%s' "$1" ;; *) printf '%s/%s' "$workspace" "$1" ;; esac }
if [ "$run_dir" != "$workspace" ]; then
  for name in CONFORMANCE_TARGET CONFORMANCE_DEVIATIONS CONFORMANCE_BASELINE CONFORMANCE_HISTORY CONFORMANCE_REPORT_DIR CONFORMANCE_REPLAY \
    CONFORMANCE_EVIDENCE_DIR CONFORMANCE_SIGNING_KEY CONFORMANCE_CA_FILE CONFORMANCE_CLIENT_CERT CONFORMANCE_CLIENT_KEY; do
    if [ -n "${!name:-}" ]; then export "$name=$(from_workspace "${!name}")"; fi
  done
fi
report="$(from_workspace "$CONFORMANCE_REPORT_DIR")/conformance.json"

# The suite reads its signing key from a file; the input is a secret's text. It is written to a folder only this
# job's user can read, outside the workspace and the report folder, and removed however the step ends.
if [ -n "${INPUT_SIGNING_KEY:-}" ]; then
  key_dir=$(umask 077 && mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/conformance-signing.XXXXXX")
  cleanup+=("$key_dir")
  (umask 077 && printf '%s\n' "$INPUT_SIGNING_KEY" >"$key_dir/key.pem")
  export CONFORMANCE_SIGNING_KEY="$key_dir/key.pem"
fi

# A stop (the runner cancelling the step) is passed on to the command, which stops Playwright and writes its report
# marked interrupted; bash runs a trap only between commands, so the command runs in the background, waited for.
command_pid=
stopped_by=
stop() {
  stopped_by=$1
  if [ -n "$command_pid" ]; then kill -s "$1" "$command_pid" 2>/dev/null; fi
}
trap 'stop TERM' TERM
trap 'stop INT' INT
trap 'stop HUP' HUP

# The report folder is the workspace's: a conformance.json there is read only if this run wrote it.
before=$(node "$GITHUB_ACTION_PATH/action/verdict.js" identity "$report")
(cd -- "$run_dir" && exec node "$GITHUB_ACTION_PATH/bin/admin-api-conformance.js") &
command_pid=$!
if [ -n "$stopped_by" ]; then kill -s "$stopped_by" "$command_pid" 2>/dev/null; fi
# `wait` returns early when a trapped signal arrives: wait again until the command has ended, for its own code.
while kill -0 "$command_pid" 2>/dev/null; do wait "$command_pid"; done
status=0
wait "$command_pid" || status=$?

verdict=$(node "$GITHUB_ACTION_PATH/action/verdict.js" read "$report" "$before")
# The suite appends its Markdown summary to the job summary itself, and prints each failed clause as an
# annotation (docs/reports.md); a refused configuration has neither: its reason, from the report it left, is said.
if [ "$status" = 2 ]; then
  reason=$(node "$GITHUB_ACTION_PATH/action/verdict.js" reason "$report" "$before")
  if [ -z "$reason" ]; then reason="the run wrote no report, so what it refused is in the step's log only"; fi
  summarise_refusal "$reason"
fi
set_outputs "$status" "$verdict"
if [ -n "$stopped_by" ]; then exit "$status"; fi
