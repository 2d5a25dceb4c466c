# Timed steps and side-by-side lanes for tools/test (sourced).
#   step NAME COMMAND...   prints "==> NAME", runs COMMAND, records how long it took; call it at
#                          the top level of a `set -e` script (never as a condition), so that
#                          a failure inside a COMMAND that is a function stops the script
#   side_by_side LANE...   runs each LANE (a shell function of steps) at the same time, each
#                          into its own log; prints every log when all have ended (in the order
#                          given) and fails when any lane failed
#   step_times             prints the recorded steps, slowest first, and the total
STEP_TIMES=()
STEP_START=$SECONDS

step() {
    local name=$1; shift
    echo "==> $name"
    local start=$SECONDS
    "$@"
    STEP_TIMES+=("$((SECONDS - start)) $name")
}

side_by_side() {
    local dir lane i seconds name failed=0
    dir=$(mktemp -d)
    local pids=()
    for lane in "$@"; do
        # Each lane stops at its first failure.
        ( set -euo pipefail; "$lane" ) > "$dir/$lane.log" 2>&1 &
        pids+=($!)
    done
    for i in "${!pids[@]}"; do
        lane=${@:$((i + 1)):1}
        if wait "${pids[$i]}"; then echo "==> lane $lane: passed"; else echo "==> lane $lane: FAILED"; failed=1; fi
        grep -v '^STEP_TIME ' "$dir/$lane.log" | sed 's/^/    /' || true
        # The lane's own step times, which its subshell could not record here.
        while read -r seconds name; do STEP_TIMES+=("$seconds $name (lane $lane)"); done < <(grep -o '^STEP_TIME [0-9]* .*' "$dir/$lane.log" | cut -d' ' -f2-)
    done
    rm -rf "$dir"
    return $failed
}

# In a lane: like step, and the time is printed for side_by_side to collect. A failure ends
# the lane (its subshell) at once, whatever errexit's state there.
lane_step() {
    local name=$1; shift
    echo "==> $name"
    local start=$SECONDS
    "$@" || { echo "==> FAILED: $name"; exit 1; }
    echo "STEP_TIME $((SECONDS - start)) $name"
}

step_times() {
    echo "==> time per step (seconds; lanes ran side by side)"
    printf '%s\n' "${STEP_TIMES[@]}" | sort -rn | sed 's/^/    /'
    echo "    $((SECONDS - STEP_START)) in all"
}
