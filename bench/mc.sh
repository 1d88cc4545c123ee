#!/usr/bin/env bash
# bench/mc.sh: lipton explore and SPIN side by side on the same models
# and instances (bench/mc/*.lip and bench/mc/*.pml; see bench/README.md).
#
#   bench/mc.sh            every case, RUNS=3 runs each (the fastest counts)
#   RUNS=1 bench/mc.sh chaselev-small treiber-small
#
# For each case it prints, per tool: states, transitions, wall and CPU
# seconds, states per CPU second, peak resident memory, and the verdict;
# then the ratios lipton/SPIN. SPIN's pan is compiled once per case with
# gcc -O2 -DSAFETY (SPIN's default partial-order reduction, default hash
# table); the spin -a and gcc times are reported apart. States per second
# are computed from CPU time (user + system), which a busy machine
# disturbs less than wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}

need() {
	local missing=()
	command -v spin >/dev/null || missing+=(spin)
	command -v gcc >/dev/null || missing+=(gcc)
	[ -x /usr/bin/time ] || missing+=(time)
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "mc.sh: installing ${missing[*]}" >&2
	local sudo=""
	[ "$(id -u)" -ne 0 ] && sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
need
go build -o bin/lipton ./cmd/lipton

# name | lipton model | instance | Promela model | defines for spin -a
CASES=(
	"chaselev-small|bench/mc/chaselev.lip|small|bench/mc/chaselev.pml|-DOWNERCALLS=3 -DTHIEVES=2 -DSTEALS=2"
	"chaselev-medium|bench/mc/chaselev.lip|medium|bench/mc/chaselev.pml|-DOWNERCALLS=4 -DTHIEVES=2 -DSTEALS=2"
	"chaselev-large|bench/mc/chaselev.lip|large|bench/mc/chaselev.pml|-DOWNERCALLS=4 -DTHIEVES=3 -DSTEALS=2"
	"treiber-small|bench/mc/treiber.lip|small|bench/mc/treiber.pml|-DWORKERS=2 -DCALLS=2 -DPUSHERS=0"
	"treiber-medium|bench/mc/treiber.lip|medium|bench/mc/treiber.pml|-DWORKERS=3 -DCALLS=1 -DPUSHERS=1"
	"treiber-large|bench/mc/treiber.lip|large|bench/mc/treiber.pml|-DWORKERS=3 -DCALLS=2 -DPUSHERS=0"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure OUT CMD...: runs CMD RUNS times; keeps the output and the
# times (wall user sys maxrss-KB) of the run with the least CPU time.
measure() {
	local out=$1 best="" i cpu
	shift
	for i in $(seq "$RUNS"); do
		/usr/bin/time -o "$work/time" -f '%e %U %S %M' "$@" >"$work/run.out" 2>"$work/run.err" || true
		cpu=$(awk '{printf "%.3f", $2 + $3}' "$work/time")
		if [ -z "$best" ] || awk -v a="$cpu" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$cpu
			cp "$work/run.out" "$out.out"
			cp "$work/time" "$out.time"
		fi
	done
}

# row TOOL STATES TRANSITIONS TIMEFILE VERDICT: prints one line.
row() {
	local tool=$1 states=$2 trans=$3 timefile=$4 verdict=$5
	read -r wall user sys rss <"$timefile"
	awk -v tool="$tool" -v s="$states" -v t="$trans" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" -v v="$verdict" 'BEGIN {
		cpu = u + y; rate = (cpu > 0) ? s / cpu : 0
		printf "  %-24s %12d %13d %8.2f %8.2f %12.0f %9.1f  %s\n", tool, s, t, w, cpu, rate, m / 1024, v
	}'
}

cpu_of() { awk '{printf "%.3f", $2 + $3}' "$1"; }

selected() {
	[ $# -eq 0 ] && return 0
	local c
	for c in "$@"; do [ "$c" = "$name" ] && return 0; done
	return 1
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo); load average $(cut -d' ' -f1-3 /proc/loadavg); $(spin -V | head -1); $(date -u +%Y-%m-%dT%H:%MZ); best of $RUNS runs"
printf "  %-24s %12s %13s %8s %8s %12s %9s  %s\n" tool states transitions wall-s cpu-s states/cpu-s peak-MB verdict
for c in "${CASES[@]}"; do
	IFS='|' read -r name lip inst pml defs <<<"$c"
	selected "$@" || continue
	echo "$name"

	# SPIN: generate and compile once (timed apart), then run pan.
	mkdir -p "$work/$name"
	cp "$pml" "$work/$name/model.pml"
	(
		cd "$work/$name"
		/usr/bin/time -o gen.time -f '%e %U %S %M' spin -a $defs model.pml >/dev/null
		/usr/bin/time -o cc.time -f '%e %U %S %M' gcc -O2 -DSAFETY -o pan pan.c
	)
	measure "$work/$name/spin" "$work/$name/pan"
	spin_states=$(awk '/states, stored/ {print $1; exit}' "$work/$name/spin.out")
	spin_trans=$(awk '/transitions \(= stored\+matched\)/ {print $1; exit}' "$work/$name/spin.out")
	spin_verdict=$(grep -o 'errors: [0-9]*' "$work/$name/spin.out" | sed 's/errors: 0/no violation/; s/errors: \(.*\)/\1 errors/')
	row "spin (pan, POR)" "$spin_states" "$spin_trans" "$work/$name/spin.time" "$spin_verdict"

	# lipton with its reductions, and without them (raw throughput).
	for mode in reduced raw; do
		flags=(-quiet)
		[ $mode = raw ] && flags+=(--no-por --no-symmetry)
		measure "$work/$name/lipton-$mode" bin/lipton explore "$lip" --instance "$inst" "${flags[@]}"
		last=$(tail -1 "$work/$name/lipton-$mode.out")
		states=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\1/' <<<"$last")
		trans=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\2/' <<<"$last")
		verdict=$(cut -d: -f1 <<<"$last")
		label="lipton (POR+symmetry)"
		[ $mode = raw ] && label="lipton (no reductions)"
		row "$label" "$states" "$trans" "$work/$name/lipton-$mode.time" "$verdict"
		eval "${mode}_states=$states"
	done

	spin_cpu=$(cpu_of "$work/$name/spin.time")
	gen_cpu=$(cpu_of "$work/$name/gen.time")
	cc_cpu=$(cpu_of "$work/$name/cc.time")
	red_cpu=$(cpu_of "$work/$name/lipton-reduced.time")
	raw_cpu=$(cpu_of "$work/$name/lipton-raw.time")
	awk -v sc="$spin_cpu" -v g="$gen_cpu" -v cc="$cc_cpu" -v rc="$red_cpu" -v wc="$raw_cpu" \
		-v ss="$spin_states" -v ws="$raw_states" 'BEGIN {
		sr = (sc > 0) ? ss / sc : 0; wr = (wc > 0) ? ws / wc : 0
		printf "  spin -a %.2f s + gcc -O2 %.2f s before pan\n", g, cc
		printf "  ratio lipton/spin: end to end %.3f (lipton %.2f s vs spin+gcc+pan %.2f s; pan alone %.2f s)\n", rc / (g + cc + sc), rc, g + cc + sc, sc
		printf "  ratio lipton/spin: raw states per CPU second %.2f (%.0f vs %.0f)\n", (sr > 0) ? wr / sr : 0, wr, sr
	}'
done
