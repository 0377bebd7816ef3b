#!/bin/sh
# A cron-style run for node_exporter's textfile collector (docs/monitoring/README.md): judges the fleet, then puts
# the run's metrics.prom where the collector reads it, by rename, so that a scrape never reads half of one.
# Run it from cron (`0 * * * * /usr/local/bin/conformance-textfile.sh`) or a systemd timer.
set -eu
: "${CONFORMANCE_TARGETS:=/etc/conformance/fleet.yaml}"
: "${CONFORMANCE_REPORT_DIR:=/var/lib/conformance/report}"
# Debian's prometheus-node-exporter reads this folder (--collector.textfile.directory).
: "${TEXTFILE_DIR:=/var/lib/prometheus/node-exporter}"
export CONFORMANCE_TARGETS CONFORMANCE_REPORT_DIR
# The tokens the fleet file names (CONFORMANCE_TOKEN_...), kept out of the crontab.
if [ -f /etc/conformance/tokens.env ]; then set -a; . /etc/conformance/tokens.env; set +a; fi

# A failing tenant (exit code 1) or one without a verdict (3) still writes metrics.prom: those are results to
# export. A configuration error (2) writes none, and the last metrics stay until they go stale.
status=0
npx --yes admin-api-conformance@0.1.0 || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ] && [ "$status" -ne 3 ]; then exit "$status"; fi

# Written beside under a name the collector ignores (it reads *.prom only), then renamed over: atomic on one file system.
cp "$CONFORMANCE_REPORT_DIR/metrics.prom" "$TEXTFILE_DIR/.conformance.prom.$$"
mv "$TEXTFILE_DIR/.conformance.prom.$$" "$TEXTFILE_DIR/conformance.prom"
