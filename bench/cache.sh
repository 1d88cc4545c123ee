#!/usr/bin/env bash
# bench/cache.sh: lipton check with the cache of proven obligations:
# the first run (an empty cache), re-runs of the unchanged proof (warm),
# a run after editing one procedure, and a run without the cache; wall
# and CPU seconds of the whole process (start included), the median of
# RUNS runs each, and the obligations answered from the cache
# (bench/README.md, "The check cache").
#
#   bench/cache.sh [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "cache.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
go build -o bin/lipton ./cmd/lipton
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
file=proofs/chaselev/chaselev.lip
# One procedure edited: steal's first annotation at layer 0 gains a
# conjunct, which changes the obligations that read it, and only those.
python3 - "$file" "$work/edited.lip" <<'PY'
import sys
s = open(sys.argv[1]).read()
old = "    h := H;\n    yield H >= h && ticsCond();\n"
i = s.index("  proc steal(")
j = s.index(old, i)
s = s[:j] + "    h := H;\n    yield h <= H && ticsCond();\n" + s[j + len(old):]
open(sys.argv[2], "w").write(s)
PY

# measure NAME CACHE-DIR FILE FLAGS...: one run; prints "wall cpu cached total"
measure() {
	local cache=$1 f=$2
	shift 2
	XDG_CACHE_HOME=$cache /usr/bin/time -o "$work/time" -f '%e %U %S' bin/lipton check --verbose "$@" "$f" >"$work/out" 2>&1 || true
	read -r wall user sys <"$work/time"
	cached=$(grep -oE '^cache +[0-9]+ of [0-9]+' "$work/out" | awk '{print $2" "$4}')
	[ -n "$cached" ] || cached="- -"
	echo "$wall $(echo "$user + $sys" | bc) $cached"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); $file; median of $runs runs"
printf "%-22s %8s %8s %14s\n" run wall-s cpu-s "from cache"
row() {
	local name=$1
	shift
	local walls=() cpus=() last=""
	for _ in $(seq "$runs"); do
		last=$("$@")
		walls+=("$(cut -d' ' -f1 <<<"$last")")
		cpus+=("$(cut -d' ' -f2 <<<"$last")")
	done
	printf "%-22s %8s %8s %14s\n" "$name" \
		"$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)" \
		"$(cut -d' ' -f3 <<<"$last") of $(cut -d' ' -f4 <<<"$last")"
}
cold() { rm -rf "$work/c"; measure "$work/c" "$file"; }
row "first (empty cache)" cold
row "unchanged (warm)" measure "$work/c" "$file"
edited() { rm -rf "$work/e"; cp -r "$work/c" "$work/e"; measure "$work/e" "$work/edited.lip"; }
row "one procedure edited" edited
row "--no-cache" measure "$work/c" "$file" --no-cache
