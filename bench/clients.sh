#!/usr/bin/env bash
# bench/clients.sh: how many calls lipton explore --clients gets through
# in 60 seconds: the largest N such that every most parallel client with
# at most N calls was checked for linearizability, for Chase-Lev (with
# the fence in take, which TSO needs) and Treiber's stack under SC and
# TSO, with the states, CPU seconds and peak memory of the run
# (bench/README.md, "All clients up to N calls").
#
#   bench/clients.sh [SECONDS]     (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "clients.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
limit=${1:-60}
go build -o bin/lipton ./cmd/lipton

# name | file | instance
CASES=(
	"chaselev-fence|mc/testdata/weak/chaselev-fence.lip|small"
	"treiber|mc/testdata/treiber.lip|small"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); limit ${limit}s"
printf "%-16s %-4s %6s %12s %8s %8s  %s\n" case mem N states cpu-s peak-MB "verdict"
for c in "${CASES[@]}"; do
	IFS='|' read -r name file inst <<<"$c"
	for mem in sc tso; do
		/usr/bin/time -o "$work/time" -f '%U %S %M' bin/lipton explore --quiet --clients 30 --timeout "${limit}s" \
			--memory "$mem" --instance "$inst" "$file" >"$work/out" 2>&1 || true
		n=$(grep -oE 'every client with at most [0-9]+ call' "$work/out" | tail -1 | grep -oE '[0-9]+' || echo 0)
		states=$(grep -E '^(no violation|VIOLATION|INCOMPLETE)' "$work/out" | tail -1 | grep -oE '[0-9]+ states' | tail -1)
		verdict=$(grep -E '^(no violation|VIOLATION|INCOMPLETE)' "$work/out" | tail -1 | cut -c1-60)
		read -r user sys rss < <(tail -1 "$work/time")
		awk -v n="$name" -v m="$mem" -v k="$n" -v s="${states%% states}" -v u="$user" -v y="$sys" -v r="$rss" -v v="$verdict" \
			'BEGIN { printf "%-16s %-4s %6s %12s %8.1f %8d  %s\n", n, m, k, s, u + y, r / 1024, v }'
	done
done
