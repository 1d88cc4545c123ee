#!/usr/bin/env bash
# bench/mc.sh: lipton explore and SPIN side by side on the same models
# and instances (bench/mc/*.lip and bench/mc/*.pml; see bench/README.md).
#
#   bench/mc.sh            every case, RUNS=3 runs each (the fastest counts)
#   RUNS=1 bench/mc.sh chaselev-small treiber-small
#
# For each case it prints, per tool: states, transitions, wall and CPU
# seconds, states per CPU second, peak resident memory, and the verdict;
# then the ratios lipton/SPIN. SPIN's pan is compiled with gcc -O2
# -DSAFETY (SPIN's default partial-order reduction, default hash table),
# and again with -DCOLLAPSE, -DHC4 and -DNCORE=2 (SPIN_VARIANTS); the
# spin -a and gcc times are reported apart. States per second
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

# SPIN's configurations: name | label | gcc flags. The default is what
# the ratios compare with; COLLAPSE compresses states losslessly, HC4 is
# hash compaction (lossy: it may miss states, and says so by counting
# fewer), NCORE=2 is SPIN's multi-core search on two cores.
SPIN_VARIANTS=(
	"default|spin (pan, POR)|"
	"collapse|spin -DCOLLAPSE|-DCOLLAPSE"
	"hc4|spin -DHC4 (lossy)|-DHC4"
	"ncore2|spin -DNCORE=2|-DNCORE=2"
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

	# SPIN: generate once, compile once per variant (both timed apart),
	# then run pan.
	mkdir -p "$work/$name"
	cp "$pml" "$work/$name/model.pml"
	(cd "$work/$name" && /usr/bin/time -o gen.time -f '%e %U %S %M' spin -a $defs model.pml >/dev/null)
	for v in "${SPIN_VARIANTS[@]}"; do
		IFS='|' read -r vname vlabel vflags <<<"$v"
		# pan runs beside model.pml: the multi-core pan names its shared
		# memory after the model's file (ftok).
		(cd "$work/$name" && /usr/bin/time -o "cc-$vname.time" -f '%e %U %S %M' gcc -O2 -DSAFETY $vflags -o "pan-$vname" pan.c)
		(cd "$work/$name" && measure "$work/$name/spin-$vname" "./pan-$vname")
		states=$(awk '/states, stored/ {s = $1} END {print s}' "$work/$name/spin-$vname.out")
		trans=$(awk '/transitions \(= stored\+matched\)/ {s = $1} END {print s}' "$work/$name/spin-$vname.out")
		verdict=$(grep -o 'errors: [0-9]*' "$work/$name/spin-$vname.out" | tail -1 | sed 's/errors: 0/no violation/; s/errors: \(.*\)/\1 errors/')
		row "$vlabel" "$states" "$trans" "$work/$name/spin-$vname.time" "$verdict"
		if [ "$vname" = default ]; then
			spin_states=$states
		fi
	done
	# The hash table sized as SPIN's manual advises (-w: 2^w slots, about
	# one per state), instead of the default 2^24: what an expert would
	# run when memory matters.
	w=$(awk -v s="$spin_states" 'BEGIN { w = 10; while (2 ^ w < s) w++; print w }')
	(cd "$work/$name" && measure "$work/$name/spin-sized" ./pan-default "-w$w")
	row "spin -w$w" "$spin_states" \
		"$(awk '/transitions \(= stored\+matched\)/ {s = $1} END {print s}' "$work/$name/spin-sized.out")" \
		"$work/$name/spin-sized.time" \
		"$(grep -o 'errors: [0-9]*' "$work/$name/spin-sized.out" | tail -1 | sed 's/errors: 0/no violation/; s/errors: \(.*\)/\1 errors/')"

	# lipton with its reductions, and without them (raw throughput), on
	# one worker as pan runs on one core (the -DNCORE=2 row is SPIN's
	# multi-core search; bench/parallel.sh measures lipton's).
	for mode in reduced raw; do
		flags=(-quiet --jobs 1)
		[ $mode = raw ] && flags+=(--no-por --no-symmetry --no-dead-vars)
		measure "$work/$name/lipton-$mode" bin/lipton explore "$lip" --instance "$inst" "${flags[@]}"
		last=$(tail -1 "$work/$name/lipton-$mode.out")
		states=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\1/' <<<"$last")
		trans=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\2/' <<<"$last")
		verdict=$(cut -d: -f1 <<<"$last")
		label="lipton (POR+sym+dead)"
		[ $mode = raw ] && label="lipton (no reductions)"
		row "$label" "$states" "$trans" "$work/$name/lipton-$mode.time" "$verdict"
		eval "${mode}_states=$states"
	done

	# The ratios compare with the fastest lossless SPIN run (HC4 may miss
	# states): usually the one with the hash table sized to the model.
	spin_cpu="" spin_label=""
	for v in default collapse ncore2 sized; do
		c=$(cpu_of "$work/$name/spin-$v.time")
		if [ -z "$spin_cpu" ] || awk -v a="$c" -v b="$spin_cpu" 'BEGIN { exit !(a < b) }'; then
			spin_cpu=$c spin_label=$v
		fi
	done
	[ "$spin_label" = sized ] && spin_label="-w$w"
	gen_cpu=$(cpu_of "$work/$name/gen.time")
	cc_cpu=$(cpu_of "$work/$name/cc-default.time")
	red_cpu=$(cpu_of "$work/$name/lipton-reduced.time")
	raw_cpu=$(cpu_of "$work/$name/lipton-raw.time")
	awk -v sc="$spin_cpu" -v sl="$spin_label" -v g="$gen_cpu" -v cc="$cc_cpu" -v rc="$red_cpu" -v wc="$raw_cpu" \
		-v ss="$spin_states" -v ws="$raw_states" -v rs="$reduced_states" 'BEGIN {
		printf "  spin -a %.2f s + gcc -O2 %.2f s before pan\n", g, cc
		printf "  ratio lipton/spin (%s): states with reductions %.3f, without %.2f\n", sl, rs / ss, ws / ss
		if (sc < 0.05 || wc < 0.05) {
			printf "  ratio lipton/spin (%s): CPU times below 0.05 s, too short to compare\n", sl
		} else {
			printf "  ratio lipton/spin (%s): CPU with reductions %.2f (%.2f s vs %.2f s), without %.2f (%.2f s); states per CPU second without reductions %.2f\n", sl, rc / sc, rc, sc, wc / sc, wc, (ws / wc) / (ss / sc)
		}
	}'
done
