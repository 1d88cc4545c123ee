#!/usr/bin/env bash
# bench/scaling.sh: how lipton explore scales with the instance, with and
# without its reductions: Chase-Lev (bench/mc/chaselev.lip) with more
# owner calls and more thieves, Treiber's stack (bench/mc/treiber.lip)
# with more threads and calls. Per run: states, transitions, CPU seconds
# (user + system), wall seconds, peak resident memory, bytes per state
# (the memory the search holds, as explore reports it in whole MiB, over
# the states; peak RSS adds the process's fixed ~15 MB and Go's heap
# slack), the verdict.
#
#   bench/scaling.sh                 every row, LIMIT=60s each
#   LIMIT=20s bench/scaling.sh chaselev   only the Chase-Lev rows
#   JOBS=2 bench/scaling.sh          explore with 2 workers (default: 1; bench/parallel.sh compares)
#   EXTRA=--no-compress bench/scaling.sh   more flags for explore (here: the uncompressed visited set)
#
# The models' functions that unroll the deque or stack (inDeque, inStack)
# and the quiescence property (quiescentOK) are generated for the
# instance's number of tasks, with the same definitions as the
# benchmark files; a run that hits LIMIT or MEMORY prints its partial
# counts and "limit", never a verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-60s}
MEMORY=${MEMORY:-4GiB}
only=${1:-}
[ -x /usr/bin/time ] || { echo "scaling.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
go build -o bin/lipton ./cmd/lipton
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=(--jobs "${JOBS:-1}")
read -ra extra <<<"${EXTRA:-}"

# shellcheck source=bench/models.sh
source bench/models.sh

# run LABEL FILE FLAGS...: one row.
run() {
	local label=$1 file=$2
	shift 2
	/usr/bin/time -o "$work/time" -f '%e %U %S %M' ./bin/lipton explore "$file" --quiet \
		--timeout "$LIMIT" --max-memory "$MEMORY" "${jobs[@]}" "${extra[@]}" "$@" >"$work/out" 2>&1 || true
	local last verdict states trans held
	last=$(grep -E '[0-9]+ states, [0-9]+ transitions' "$work/out" | tail -1)
	held=$(grep -oE '[0-9.]+ [KMG]?B, peak RSS' <<<"$last" | awk '{ m = $1; u = $2; sub(/,/, "", u); f = (u == "MB") ? 1048576 : 1; print m * f }')
	states=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\1/' <<<"$last")
	trans=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\2/' <<<"$last")
	case $last in
	"no violation"*) verdict="no violation" ;;
	"INCOMPLETE"* | *"stopped"* | *"limit"* | *"timeout"* | *"incomplete"*) verdict="limit" ;;
	*) verdict=$(grep -m1 -oE 'violation|error' "$work/out" || echo "?") ;;
	esac
	# GNU time writes "Command exited with non-zero status N" first when
	# the search stops at a limit (exit 1): the numbers are the last line.
	read -r wall user sys rss < <(tail -1 "$work/time")
	awk -v l="$label" -v s="${states:-0}" -v t="${trans:-0}" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" -v h="${held:-0}" -v v="$verdict" 'BEGIN {
		cpu = u + y; bps = (s > 0) ? h / s : 0
		printf "  %-34s %11d %12d %8.2f %8.2f %8.1f %9.0f  %s\n", l, s, t, cpu, w, m / 1024, bps, v }'
}

echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); limit $LIMIT, $MEMORY per run${JOBS:+; --jobs $JOBS}${EXTRA:+; $EXTRA}"
printf '  %-34s %11s %12s %8s %8s %8s %9s  %s\n' case states transitions cpu-s wall-s peak-MB B/state verdict
if [ -z "$only" ] || [ "$only" = chaselev ]; then
	echo "chaselev: owner calls x thieves x steals"
	for cfg in "3 2 2" "4 2 2" "5 2 2" "6 2 2" "4 3 2" "4 4 2" "6 3 2" "6 4 2"; do
		read -r o th st <<<"$cfg"
		f="$work/chaselev-$o-$th-$st.lip"
		chaselev "$o" "$o" "$th" "$st" >"$f"
		run "$o x $th x $st (reductions)" "$f"
		run "$o x $th x $st (no reductions)" "$f" --no-por --no-symmetry --no-dead-vars
	done
fi
if [ -z "$only" ] || [ "$only" = treiber ]; then
	echo "treiber: threads x calls of push/pop"
	for cfg in "2 2" "3 1" "3 2" "4 1" "4 2"; do
		read -r w c <<<"$cfg"
		f="$work/treiber-$w-$c.lip"
		treiber $((w * c)) "$w" "$c" >"$f"
		run "$w x $c (reductions)" "$f"
		run "$w x $c (no reductions)" "$f" --no-por --no-symmetry --no-dead-vars
	done
fi
