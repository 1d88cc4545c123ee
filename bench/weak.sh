#!/usr/bin/env bash
# bench/weak.sh: lipton explore --linearizability under sequential
# consistency, TSO and PSO on the weak-memory test models (Chase-Lev
# without a fence, with a fence in take, with fences in take and put;
# Treiber's stack): states, transitions, CPU seconds, peak memory and the
# verdict of each run (bench/README.md). sc/a is sequential consistency
# with access atomicity, the granularity tso and pso run at.
#
#   bench/weak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "weak.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
go build -o bin/lipton ./cmd/lipton

# name | file | instance
CASES=(
	"chaselev-nofence|mc/testdata/weak/chaselev-nofence.lip|small"
	"chaselev-fence|mc/testdata/weak/chaselev-fence.lip|small"
	"chaselev-fence2|mc/testdata/weak/chaselev-fence2.lip|small"
	"treiber|mc/testdata/treiber.lip|small"
	"msqueue|mc/testdata/weak/msqueue.lip|small"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
printf "%-18s %-5s %10s %12s %8s %8s  %s\n" case mem states transitions cpu-s peak-MB verdict
for c in "${CASES[@]}"; do
	IFS='|' read -r name file inst <<<"$c"
	for mode in "sc|--memory sc" "sc/a|--memory sc --atomicity access" "tso|--memory tso" "pso|--memory pso"; do
		IFS='|' read -r mem flags <<<"$mode"
		# shellcheck disable=SC2086 # flags are words
		/usr/bin/time -o "$work/time" -f '%U %S %M' bin/lipton explore --linearizability --quiet \
			$flags --instance "$inst" "$file" >"$work/out" 2>&1 || true
		last=$(grep -E '^(no violation|VIOLATION|INCOMPLETE)' "$work/out" | tail -1)
		stats=$(grep -oE '[0-9]+ states, [0-9]+ transitions' "$work/out" | tail -1)
		states=${stats%% states*}
		trans=$(sed -E 's/.* ([0-9]+) transitions/\1/' <<<"$stats")
		verdict=$(sed -E "s/^(no violation|VIOLATION|INCOMPLETE).*/\1/" <<<"$last")
		read -r user sys rss < <(tail -1 "$work/time")
		awk -v n="$name" -v m="$mem" -v s="$states" -v t="$trans" -v u="$user" -v y="$sys" -v r="$rss" -v v="$verdict" \
			'BEGIN { printf "%-18s %-5s %10d %12d %8.2f %8.1f  %s\n", n, m, s, t, u + y, r / 1024, v }'
	done
done
