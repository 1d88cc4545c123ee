#!/usr/bin/env bash
# bench/seeds.sh: the source papers' benchmark cases (../shared/seeds),
# run with lipton explore on models written from the papers'
# descriptions (bench/seeds/*.lip; proofs/treiber/treiber.lip), with the
# published figures beside lipton's. See bench/README.md ("The seeds'
# benchmarks") for what differs from each paper's setup.
#
#   bench/seeds.sh            every row, LIMIT=60s and MEMORY=8GiB per run
#
# Per row: the paper, the case, the published figure (as the paper states
# it, with its hardware), lipton's states, transitions, CPU seconds (user
# + system), peak resident memory, verdict, and whether the verdicts
# agree. A row the models do not cover says so; a run stopped at LIMIT
# or MEMORY says "limit", never a verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-60s}
MEMORY=${MEMORY:-8GiB}
[ -x /usr/bin/time ] || { echo "seeds.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
go build -o bin/lipton ./cmd/lipton
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# row PAPER CASE PUBLISHED EXPECT FILE ARGS...: runs lipton explore FILE
# ARGS and prints one line; EXPECT is the published verdict (pass: no
# violation; fail: a violation).
row() {
	local paper=$1 case=$2 published=$3 expect=$4 file=$5
	shift 5
	/usr/bin/time -o "$work/time" -f '%U %S %M' ./bin/lipton explore "$file" --quiet \
		--timeout "$LIMIT" --max-memory "$MEMORY" "$@" >"$work/out" 2>&1 || true
	local last states trans verdict agree extra=""
	last=$(grep -E '[0-9]+ states, [0-9]+ transitions' "$work/out" | tail -1)
	states=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\1/' <<<"$last")
	trans=$(sed -E 's/.* ([0-9]+) states, ([0-9]+) transitions.*/\2/' <<<"$last")
	case $last in
	"no violation"*) verdict=pass ;;
	VIOLATION*)
		verdict=fail
		extra=" (history of $(awk '/^history/ { on = 1; next } /^per thread/ { on = 0 } on && /(call|return)/ { n++ } END { print n + 0 }' "$work/out") calls and returns)"
		;;
	*) verdict=limit ;;
	esac
	if grep -q "every client with at most" "$work/out"; then
		extra=" (clients up to $(grep -oE 'every client with at most [0-9]+' "$work/out" | tail -1 | grep -oE '[0-9]+$') calls)"
		[ "$verdict" = limit ] && verdict=pass-bounded
	fi
	case $verdict/$expect in
	pass/pass | fail/fail | pass-bounded/pass) agree=yes ;;
	limit/*) agree="-" ;;
	*) agree=NO ;;
	esac
	read -r user sys rss < <(tail -1 "$work/time")
	awk -v p="$paper" -v c="$case" -v pub="$published" -v s="${states:-0}" -v t="${trans:-0}" -v u="$user" -v y="$sys" -v m="$rss" -v v="$verdict$extra" -v a="$agree" 'BEGIN {
		printf "%-4s %-30s %-44s %10d %11d %7.2f %8.1f  %-34s %s\n", p, c, pub, s, t, u + y, m / 1024, v, a }'
}

skip() {
	printf "%-4s %-30s %-44s %s\n" "$1" "$2" "$3" "not run: $4"
}

echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); limit $LIMIT, $MEMORY per run"
printf "%-4s %-30s %-44s %10s %11s %7s %8s  %-34s %s\n" seed case "published (states, time, verdict)" states transitions cpu-s peak-MB "lipton verdict" agree
# seed 001 (PAT), Table 1: Intel Q9550 2.83 GHz, 2 GB; states and time without / with POR.
row 001 "4-valued register, 2 procs" "50893, 6.14s / 43977, 5.72s; lin." pass bench/seeds/register.lip --instance k4 --linearizability
row 001 "5-valued register, 2 procs" "349333, 44.9s / 307155, 60.4s; lin." pass bench/seeds/register.lip --instance k5 --linearizability
row 001 "6-valued register, 2 procs" "2062437, 297s / 1838177, 789s; lin." pass bench/seeds/register.lip --instance k6 --linearizability
row 001 "3-valued register, 3 procs" "479859, 294s / 361255, 393s; lin." pass bench/seeds/register.lip --instance k3readers2 --linearizability
row 001 "stack (Treiber), 2 procs" "size 12: 540769, 138s / 395345, 65.9s; lin." pass proofs/treiber/treiber.lip --instance small --linearizability
row 001 "queue (Michael-Scott), 2 procs" "size 6: 432511, 134s / 343446, 86.2s; lin." pass bench/seeds/msqueue.lip --instance two_by_three --linearizability
row 001 "buggy queue (Shann et al.), 2 procs" "size 10: 32126, 10.9s; not lin." fail bench/seeds/buggyqueue.lip --instance two_by_four --linearizability
skip 001 "SNZI" "size 2: 712857, 1298s; lin." "no model"
# seed 002 (SPIN), Table 4: Intel i7-4790, 32 GB; external checking.
row 002 "Treiber stack (ABA), 2x4 ops" "bug found: 373 ms, 172 MB" fail bench/seeds/treiber-aba.lip --instance two_by_four --linearizability
row 002 "buggy queue (Shann et al.), 2x4 ops" "bug found: 248 ms, 159 MB" fail bench/seeds/buggyqueue.lip --instance two_by_four --linearizability
row 002 "buggy queue, Fig. 2's history" "Fig. 2: deq returns 2 inside enq(1), enq(2)" fail bench/seeds/buggyqueue.lip --instance smallest --linearizability
row 002 "Snark deque, bug 1, 2x4 ops" "bug 1 found: 86 ms, 139 MB" fail bench/seeds/snark.lip --instance two_by_four --linearizability
skip 002 "Snark deque, bug 2" "not found (out of memory after 50 h)" "not found: with bug 1 fixed, 2x4 exceeds 50 M states"
# seed 004 (RELINCHE), SC rows: all most parallel clients up to N calls.
row 004 "MS queue (SC), all clients" "linearizable up to 9 calls (Fig. 4, a plot)" pass bench/seeds/msqueue.lip --instance two_by_two --clients 9
row 004 "Herlihy-Wing queue (SC), all clients" "linearizable up to 9 calls (Fig. 5, a plot)" pass bench/seeds/hwqueue.lip --instance two_by_two --clients 9
# seed 000 (quasi linearizability), Tables 1 and 3: segmented queues.
row 000 "segmented queue (segment 2), 2x2" "Table 3: linearizable: no (quasi: yes)" fail bench/seeds/segqueue.lip --instance two_by_two --linearizability
# --quasi deq=K: the segmented queue (segment K + 1) is K-quasi: it
# passes at K and fails at K - 1; Table 1's "segments" is the number of
# segments a producer fills while a consumer empties them.
row 000 "segment 2, factor 1, 1 segment" "Table 1: 1 segment, factor 1: 423, 0.1s" pass bench/seeds/segqueue.lip --instance segments1 --linearizability --quasi deq=1
row 000 "segment 2, factor 1, 2 segments" "Table 1: 2 segments, factor 1: 2310, 0.1s" pass bench/seeds/segqueue.lip --instance segments2 --linearizability --quasi deq=1
row 000 "segment 2, factor 1, 3 segments" "Table 1: 3 segments, factor 1: 8002, 0.1s" pass bench/seeds/segqueue.lip --instance segments3 --linearizability --quasi deq=1
row 000 "segment 2, factor 1, 4 segments" "Table 1: 4 segments, factor 1: 22327, 0.4s" pass bench/seeds/segqueue.lip --instance segments4 --linearizability --quasi deq=1
row 000 "segment 2, factor 0, 2 segments" "not 0-quasi (not linearizable)" fail bench/seeds/segqueue.lip --instance segments2 --linearizability --quasi deq=0
row 000 "segment 2, factor 1, 2x2 workers" "Table 3: quasi linearizable: yes" pass bench/seeds/segqueue.lip --instance two_by_two --linearizability --quasi deq=1
row 000 "segment 3, factor 2, 1 segment" "Table 1: 1 segment, factor 2: 26605, 0.6s" pass bench/seeds/segqueue3.lip --instance one_segment --linearizability --quasi deq=2
row 000 "segment 3, factor 2, 2 segments" "Table 1: 2 segments, factor 2: 456397, 12.6s" pass bench/seeds/segqueue3.lip --instance segments2 --linearizability --quasi deq=2
row 000 "segment 3, factor 1, 1 segment" "not 1-quasi" fail bench/seeds/segqueue3.lip --instance one_segment --linearizability --quasi deq=1
row 000 "queue buggy1, factor 1" "Table 4: Queue buggy1: 1204, 0.4s; not quasi" fail bench/seeds/segqueue-buggy1.lip --instance two_by_two --linearizability --quasi deq=1
row 000 "queue buggy2, factor 1" "Table 4: Queue buggy2: 345, 0.1s; not quasi" fail bench/seeds/segqueue-buggy2.lip --instance two_by_two --linearizability --quasi deq=1
row 000 "lin. queue (MS), factor 2" "Table 4: Lin. Queue: 240583, 5.5s; quasi" pass bench/seeds/msqueue.lip --instance two_by_two --linearizability --quasi deq=2
row 000 "deq takes the 2nd value, factor 1" "Section 4: not 1-quasi (value 1 overtaken)" fail bench/seeds/overtake.lip --instance three --linearizability --quasi deq=1
