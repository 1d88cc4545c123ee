#!/usr/bin/env bash
# bench/outside_z3.sh [FILE]: how much of the checker's CPU time is spent
# outside Z3, with Go's default garbage collector target (GOGC=100) and
# with the one `lipton check` uses (GOGC=400, cmd/lipton/main.go). It
# profiles package check in-process (bench/checkbench -cpuprofile) and
# counts the samples inside cgo calls (Z3: building terms and solving)
# against all samples. The two settings alternate, RUNS rounds each, and
# the table shows the median of the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-proofs/chaselev/chaselev.lip}
rounds=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/checkbench" ./bench/checkbench
echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "file: $file; one solver worker; $rounds rounds of 5 checks per setting"
# share prints "total-seconds cgo-seconds" of a profile.
share() {
	go tool pprof -top -nodecount=400 "$1" 2>/dev/null | awk '
		/Total samples =/ { for (i = 1; i <= NF; i++) if ($i == "=") { t = $(i+1) } }
		$NF == "runtime.cgocall" { c = $4 }
		function secs(x) { if (x ~ /ms$/) { sub(/ms$/, "", x); return x / 1000 } sub(/s$/, "", x); return x + 0 }
		END { printf "%.3f %.3f\n", secs(t), secs(c) }'
}
for r in $(seq "$rounds"); do
	for gc in 100 400; do
		GOGC=$gc "$tmp/checkbench" -runs 5 -jobs 1 -cpuprofile "$tmp/p.prof" "$file" >/dev/null
		echo "$gc $(share "$tmp/p.prof")" >>"$tmp/samples"
	done
done
printf '%-8s %14s %14s %14s %12s\n' GOGC "CPU/check (s)" "in Z3 (s)" "outside Z3 (s)" "outside Z3"
for gc in 100 400; do
	awk -v gc="$gc" '$1 == gc { print $2 / 5, $3 / 5 }' "$tmp/samples" | sort -n | awk -v gc="$gc" '
		{ t[NR] = $1; c[NR] = $2 }
		END { m = int((NR + 1) / 2); printf "%-8s %14.3f %14.3f %14.3f %11.0f%%\n", gc, t[m], c[m], t[m] - c[m], 100 * (t[m] - c[m]) / t[m] }'
done
