#!/usr/bin/env bash
# bench/targets.sh: the scale targets of the benchmarks, lipton explore
# against SPIN on the same models: Chase-Lev with 6 owner calls, 4
# thieves and 2 steals each, and Treiber's stack with 4 threads of 2
# calls each (bench/README.md, "The scale targets against SPIN").
#
#   bench/targets.sh                  both cases, LIMIT=600s and MEMORY=12000 (MB) per run
#   LIMIT=120s bench/targets.sh treiber
#   LIPTON_ONLY=1 bench/targets.sh    lipton's rows only (after a change to lipton)
#
# The models are the benchmark files (bench/mc/chaselev.lip and .pml,
# bench/mc/treiber.lip and .pml) with their unrolled functions generated
# for the instance's number of tasks (bench/models.sh). SPIN runs as in
# bench/mc.sh: pan compiled with gcc -O2 -DSAFETY (partial-order
# reduction on), the hash table sized as SPIN's manual advises for a
# state space this large (-w27), and again with -DCOLLAPSE; -DMEMLIM
# bounds its memory. lipton runs with its reductions (partial-order,
# symmetry, dead variables) on 1 and 2
# workers. A run that hits the time or memory limit prints its partial
# counts and "limit", never a verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-600s}
MEMORY=${MEMORY:-12000}
only=${1:-}
for tool in spin gcc; do
	command -v "$tool" >/dev/null || { echo "targets.sh: needs $tool (apt-get install spin gcc)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "targets.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
go build -o bin/lipton ./cmd/lipton
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=bench/models.sh
source bench/models.sh

# row LABEL STATES TRANSITIONS VERDICT: one line, times from $work/time.
row() {
	local wall user sys rss
	read -r wall user sys rss < <(tail -1 "$work/time")
	awk -v l="$1" -v s="${2:-0}" -v t="${3:-0}" -v v="$4" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" 'BEGIN {
		printf "  %-28s %11d %12.0f %8.2f %8.2f %9.1f  %s\n", l, s, t, u + y, w, m / 1024, v }'
}

# spin_run LABEL DIR PAN: runs a compiled pan in DIR under the limits.
spin_run() {
	local label=$1 dir=$2 pan=$3 out verdict
	out="$dir/$pan.out"
	(cd "$dir" && /usr/bin/time -o "$work/time" -f '%e %U %S %M' timeout "$LIMIT" "./$pan" -w27 -m100000 >"$out" 2>&1) || true
	if grep -q 'reached -DMEMLIM bound' "$out"; then
		verdict="limit (memory)"
	elif ! grep -q 'states, stored' "$out"; then
		verdict="limit (time)"
	else
		verdict=$(grep -o 'errors: [0-9]*' "$out" | tail -1 | sed 's/errors: 0/no violation/; s/errors: \(.*\)/\1 errors/')
	fi
	# A run stopped by the time limit prints no summary: its counts are
	# those of pan's last progress line (every million states).
	row "$label" "$(awk '/^Depth=.*States=/ {s = $4} /states, stored/ {s = $1} END {print s + 0}' "$out")" \
		"$(awk '/^Depth=.*Transitions=/ {t = $6} /transitions \(= stored\+matched\)/ {t = $1} END {print t + 0}' "$out")" "$verdict"
}

# lipton_run LABEL FILE FLAGS...: one explore run under the limits.
lipton_run() {
	local label=$1 file=$2 last verdict
	shift 2
	/usr/bin/time -o "$work/time" -f '%e %U %S %M' ./bin/lipton explore "$file" --quiet \
		--timeout "$LIMIT" --max-memory "${MEMORY}MiB" --max-states 1000000000 "$@" >"$work/out" 2>&1 || true
	last=$(grep -E '[0-9]+ states, [0-9]+ transitions' "$work/out" | tail -1)
	case $last in
	"no violation"*) verdict="no violation" ;;
	*) verdict="limit" ;;
	esac
	row "$label" "$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\1/' <<<"$last")" \
		"$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\2/' <<<"$last")" "$verdict"
}

# target NAME LIPTON-MODEL PML-MODEL SPIN-DEFINES: the rows of one case.
target() {
	local name=$1 dir="$work/$1"
	mkdir -p "$dir"
	cp "$3" "$dir/model.pml"
	(cd "$dir" && spin -a $4 model.pml >/dev/null &&
		gcc -O2 -DSAFETY -DMEMLIM="$MEMORY" -o pan pan.c &&
		gcc -O2 -DSAFETY -DMEMLIM="$MEMORY" -DCOLLAPSE -o pan-collapse pan.c)
	echo "$name"
	if [ -z "${LIPTON_ONLY:-}" ]; then
		spin_run "spin (pan, POR) -w27" "$dir" pan
		spin_run "spin -DCOLLAPSE -w27" "$dir" pan-collapse
	fi
	lipton_run "lipton (POR+sym+dead) 1 job" "$2" --jobs 1
	lipton_run "lipton (POR+sym+dead) 2 jobs" "$2" --jobs 2
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo); load average $(cut -d' ' -f1-3 /proc/loadavg); $(spin -V | head -1); $(date -u +%Y-%m-%dT%H:%MZ); limit $LIMIT, $MEMORY MB per run"
printf '  %-28s %11s %12s %8s %8s %9s  %s\n' tool states transitions cpu-s wall-s peak-MB verdict
if [ -z "$only" ] || [ "$only" = chaselev ]; then
	chaselev 6 6 4 2 >"$work/chaselev.lip"
	chaselev_pml 6 >"$work/chaselev.pml"
	target "chaselev 6 x 4 x 2" "$work/chaselev.lip" "$work/chaselev.pml" "-DOWNERCALLS=6 -DTHIEVES=4 -DSTEALS=2"
fi
if [ -z "$only" ] || [ "$only" = treiber ]; then
	treiber 8 4 2 >"$work/treiber.lip"
	treiber_pml 8 >"$work/treiber.pml"
	target "treiber 4 x 2" "$work/treiber.lip" "$work/treiber.pml" "-DWORKERS=4 -DCALLS=2 -DPUSHERS=0"
fi
