# The name the action gives the target it judges, for its report artifact and its history's cache: the target
# file's name, or the base URL's host, port and path (never its credentials, query or fragment). Sourced by
# run.sh and history-key.sh.

slug() { printf '%s' "$1" | tr -cs 'A-Za-z0-9._-' '-' | cut -c1-80 | sed 's/^-*//; s/-*$//'; }

# The target's name as a slug; nothing when neither a target file nor a base URL is given.
target_name() {
  if [ -n "${INPUT_TARGET_FILE:-}" ]; then
    local name
    name=$(basename -- "$INPUT_TARGET_FILE")
    slug "${name%.*}"
  elif [ -n "${INPUT_BASE_URL:-}" ]; then
    local rest authority path
    rest=${INPUT_BASE_URL#*://}
    authority=${rest%%[/?#]*}
    path=${rest:${#authority}}
    slug "${authority##*@}${path%%[?#]*}"
  fi
}
