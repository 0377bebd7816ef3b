#!/usr/bin/env bash
# npm test opens the HTML report in Debian's Chromium (Playwright's own browser download is unreachable on
# these machines). Installs it when missing and possible, so that `npm ci && npm test` sets a machine up.
set -euo pipefail
if [ -n "${ADMIN_API_CONFORMANCE_CHROMIUM:-}" ] && [ -x "${ADMIN_API_CONFORMANCE_CHROMIUM}" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium package for the HTML report test" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "npm test needs Chromium: install Debian's chromium package (apt-get install chromium) or set ADMIN_API_CONFORMANCE_CHROMIUM to a Chromium binary" >&2
exit 1
