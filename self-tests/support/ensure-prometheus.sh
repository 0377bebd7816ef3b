#!/usr/bin/env bash
# The monitoring self-tests (self-tests/monitoring/) read the suite's metrics with Debian's promtool and scrape its
# exporter with a real Prometheus. Installs Debian's prometheus package when either is missing and possible, so
# that `npm ci && npm test` sets a machine up. The package's service is left stopped: the tests start their own
# Prometheus on loopback, with a temporary storage folder.
set -euo pipefail
if [ -n "${ADMIN_API_CONFORMANCE_PROMETHEUS:-}" ] && [ -x "${ADMIN_API_CONFORMANCE_PROMETHEUS}" ] \
  && [ -n "${ADMIN_API_CONFORMANCE_PROMTOOL:-}" ] && [ -x "${ADMIN_API_CONFORMANCE_PROMTOOL}" ]; then exit 0; fi
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's prometheus package for the monitoring self-tests" >&2
  apt-get update -qq
  # No service started on install (policy-rc.d says no): a machine would get a Prometheus on :9090, and a
  # container has no init to start it. An existing policy is the machine's and is left as it is.
  created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && created_policy=1
  fi
  trap 'if [ "$created_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi' EXIT
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >/dev/null
  if command -v systemctl >/dev/null 2>&1; then
    if [ -d /run/systemd/system ]; then systemctl disable --now prometheus >/dev/null 2>&1 || true
    else systemctl disable prometheus >/dev/null 2>&1 || true; fi
  fi
  exit 0
fi
echo "npm test needs Prometheus: install Debian's prometheus package (apt-get install prometheus), or set ADMIN_API_CONFORMANCE_PROMETHEUS and ADMIN_API_CONFORMANCE_PROMTOOL to its binaries" >&2
exit 1
