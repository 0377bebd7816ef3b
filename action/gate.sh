#!/usr/bin/env bash
# Fails the job on a violation and on no verdict, and says which.
set -uo pipefail
case "$EXIT_CODE" in
  # Under the ratchet (CONFORMANCE_GATE=regressions) exit code 0 may stand beside a FAIL the baseline shared: said, never called a pass.
  0) if [ "$VERDICT" = pass ]; then echo "Conformance: PASS ($VERDICT)"; else echo "::warning title=Conformance $VERDICT, nothing regressed::the ratchet (CONFORMANCE_GATE=regressions) passes the job, and the verdict is still $VERDICT: the deployment fails what the baseline failed; the job summary says which"; fi ;;
  1) echo "::error title=Conformance FAIL::the deployment violates the specification; the job summary and the conformance-report artifact say where"; exit 1 ;;
  2) echo "::error title=Conformance not run::configuration error, nothing was checked; the log of the step 'Run the conformance suite' says what to fix"; exit 2 ;;
  *) echo "::error title=Conformance without a verdict::no verdict ($VERDICT, exit code $EXIT_CODE): the target could not be reached or evaluated, or the run was partial or stopped"; exit "${EXIT_CODE:-3}" ;;
esac
