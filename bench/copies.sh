#!/usr/bin/env bash
# bench/copies.sh [KMAX] [FILE]: how `lipton check` grows with the number
# of procedures: k independent copies of a proof (bench/copies renames
# every constant, variable, function, action and procedure of copy i by
# _i), k = 1..KMAX (default 4) of proofs/chaselev/chaselev.lip. Per k: the
# obligations, the pairs skipped without a solver, and the CPU seconds
# (user + system, one solver worker, --no-cache) of the median of RUNS
# (default 3) runs.
set -euo pipefail
cd "$(dirname "$0")/.."
kmax=${1:-4}
file=${2:-proofs/chaselev/chaselev.lip}
runs=${RUNS:-3}
[ -x /usr/bin/time ] || { echo "copies.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
go build -o bin/lipton ./cmd/lipton
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/copies" ./bench/copies
echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); $file; median of $runs runs"
printf '%3s %12s %10s %8s %16s\n' k obligations skipped cpu-s "obligations/k"
for k in $(seq "$kmax"); do
	"$work/copies" -k "$k" "$file" >"$work/k.lip"
	for r in $(seq "$runs"); do
		/usr/bin/time -o "$work/time" -f '%U %S' ./bin/lipton check --no-cache --jobs 1 "$work/k.lip" >"$work/out" 2>&1 || true
		awk '{ printf "%.2f\n", $1 + $2 }' "$work/time" >>"$work/cpu-$k"
	done
	total=$(grep '^total:' "$work/out")
	obs=$(sed -E 's/^total: ([0-9]+) proven, ([0-9]+) failed, ([0-9]+) unknown, ([0-9]+) skipped.*/\1 \2 \3 \4/' <<<"$total")
	read -r p f u s <<<"$obs"
	cpu=$(sort -n "$work/cpu-$k" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	printf '%3d %12d %10d %8.2f %16.0f\n' "$k" $((p + f + u)) "$s" "$cpu" "$(((p + f + u) / k))"
done
