#!/usr/bin/env bash
# Fails the job on a violation and on no verdict, and says which. The job passes or fails by the command's exit code
# alone; the verdict is only named. Both arrive as step outputs, and only as what the run step writes: an exit code
# that is no number from 0 to 255 is none (no verdict, exit code 3), a verdict that is not one of the suite's words
# is none, so that nothing else is ever printed here.
set -uo pipefail
exit_code=${EXIT_CODE:-}
if ! [[ $exit_code =~ ^(0|[1-9][0-9]{0,2})$ ]] || [ "$exit_code" -gt 255 ]; then exit_code=; fi
verdict=${VERDICT:-}
case "$verdict" in pass | fail | error | partial | incomplete | none) ;; *) verdict=none ;; esac
case "$exit_code" in
  # Under the ratchet (CONFORMANCE_GATE=regressions) exit code 0 may stand beside a FAIL the baseline shared: said, never called a pass.
  0)
    if [ "$verdict" = pass ]; then
      echo "Conformance: PASS ($verdict)"
    elif [ "$verdict" = none ]; then
      echo "Conformance: exit code 0; no report of this run was read, so no verdict is named"
    else
      echo "::warning title=Conformance $verdict, nothing regressed::the ratchet (CONFORMANCE_GATE=regressions) passes the job, and the verdict is still $verdict: the deployment fails what the baseline failed; the job summary says which"
    fi
    ;;
  1) echo "::error title=Conformance FAIL::the deployment violates the specification; the job summary and the conformance-report artifact say where"; exit 1 ;;
  2) echo "::error title=Conformance not run::configuration error, nothing was checked; the log of the step 'Run the conformance suite' says what to fix"; exit 2 ;;
  '') echo "::error title=Conformance without a verdict::the step 'Run the conformance suite' gave no exit code: it did not run, or did not end"; exit 3 ;;
  *) echo "::error title=Conformance without a verdict::no verdict ($verdict, exit code $exit_code): the target could not be reached or evaluated, or the run was partial or stopped"; exit "$exit_code" ;;
esac
