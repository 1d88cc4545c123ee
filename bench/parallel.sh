#!/usr/bin/env bash
# bench/parallel.sh: lipton explore with 1, 2, ... workers (--jobs) on
# Chase-Lev (bench/mc/chaselev.lip) and Treiber's stack
# (bench/mc/treiber.lip) instances that take a few CPU seconds, models
# generated as in bench/scaling.sh (bench/models.sh), and the bundled
# Chase-Lev proof's linearizability check on a larger instance (the
# workers share the specification side). Per run: states,
# wall seconds, CPU seconds (user + system), CPU/wall (how many cores the
# run kept busy on average), the speed-up of the wall time over one
# worker, and whether the output (verdict, counts, depth, notes,
# counterexample; all but the time, rate and memory) is the same as with
# one worker.
#
#   bench/parallel.sh                 every row, JOBS="1 2", LIMIT=120s each
#   JOBS="1 2 4" bench/parallel.sh    more workers
#   bench/parallel.sh treiber         only the Treiber rows
#   bench/parallel.sh lin             only the linearizability row
#
# CPU/wall and the speed-up measure the machine as much as the search:
# on a machine shared with other jobs, a worker waits for a core, the
# CPU/wall ratio falls and the wall times vary from run to run.
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-120s}
JOBS=${JOBS:-1 2}
only=${1:-}
[ -x /usr/bin/time ] || { echo "parallel.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
go build -o bin/lipton ./cmd/lipton
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=bench/models.sh
source bench/models.sh

# row PROGRAM INSTANCE FILE FLAGS...: one row per number of workers.
row() {
	local program=$1 instance=$2 file=$3 jobs wall user sys base="" ref="$work/ref"
	shift 3
	for jobs in $JOBS; do
		/usr/bin/time -o "$work/time" -f '%e %U %S' ./bin/lipton explore "$file" --quiet \
			--timeout "$LIMIT" --jobs "$jobs" "$@" >"$work/out" 2>&1 || true
		# everything but the time, the rate and the memory
		sed -E 's/(depth [0-9]+), .*states\/s, .*/\1/' "$work/out" >"$work/masked"
		local last states same verdict
		last=$(grep -E '[0-9]+ states, [0-9]+ transitions' "$work/out" | tail -1)
		states=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\1/' <<<"$last")
		case $last in
		"no violation"*) verdict="no violation" ;;
		"VIOLATION"*) verdict="violation" ;;
		*) verdict="limit" ;;
		esac
		if [ -z "$base" ]; then
			cp "$work/masked" "$ref"
			same="-"
		elif cmp -s "$work/masked" "$ref"; then
			same="same"
		else
			same="DIFFERENT"
		fi
		read -r wall user sys < <(tail -1 "$work/time")
		[ -n "$base" ] || base=$wall
		awk -v p="$program" -v i="$instance" -v j="$jobs" -v s="${states:-0}" -v w="$wall" -v u="$user" -v y="$sys" \
			-v b="$base" -v same="$same" -v v="$verdict" 'BEGIN {
			cpu = u + y
			printf "%-9s %-26s %4d %10d %8.2f %8.2f %8.2f %8.2f  %-9s %s\n", p, i, j, s, w, cpu, (w > 0) ? cpu / w : 0, (w > 0) ? b / w : 0, same, v }'
	done
}

echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); limit $LIMIT per run"
printf '%-9s %-26s %4s %10s %8s %8s %8s %8s  %-9s %s\n' program instance jobs states wall-s cpu-s cpu/wall speedup output verdict
if [ -z "$only" ] || [ "$only" = chaselev ]; then
	chaselev 4 4 4 2 >"$work/cl442.lip"
	row chaselev "4x4x2 (reductions)" "$work/cl442.lip"
	chaselev 6 6 3 2 >"$work/cl632.lip"
	row chaselev "6x3x2 (reductions)" "$work/cl632.lip"
	chaselev 6 6 4 2 >"$work/cl642.lip"
	row chaselev "6x4x2 (reductions)" "$work/cl642.lip"
	chaselev 4 4 3 2 >"$work/cl432.lip"
	row chaselev "4x3x2 (no reductions)" "$work/cl432.lip" --no-por --no-symmetry --no-dead-vars
fi
if [ -z "$only" ] || [ "$only" = lin ]; then
	# the bundled proof's Chase-Lev against its atomic spec, the owner
	# making 4 calls instead of the instance's 3
	sed 's/calls put(task in 1..3), take max 3;/calls put(task in 1..3), take max 4;/' \
		proofs/chaselev/chaselev.lip >"$work/cl-lin.lip"
	row chaselev "4x2x2 linearizability" "$work/cl-lin.lip" --instance small --linearizability
fi
if [ -z "$only" ] || [ "$only" = treiber ]; then
	treiber 10 2 5 >"$work/tr25.lip"
	row treiber "2x5 (reductions)" "$work/tr25.lip"
	treiber 6 3 2 >"$work/tr32.lip"
	row treiber "3x2 (no reductions)" "$work/tr32.lip" --no-por --no-symmetry --no-dead-vars
fi
