# bench/models.sh: generators of the benchmark models of growing size,
# sourced by bench/scaling.sh and bench/parallel.sh (run from the
# repository's root). The functions that unroll the deque or stack
# (inDeque, inStack) and the quiescence property (quiescentOK) are
# generated for the instance's number of tasks, with the same
# definitions as bench/mc/chaselev.lip and bench/mc/treiber.lip.

# chaselev N OWNER THIEVES STEALS: the Chase-Lev model for N tasks.
chaselev() {
	local n=$1 owner=$2 thieves=$3 steals=$4 i
	sed -n '1,/^\/\/ inDeque(k)/p' bench/mc/chaselev.lip | sed '$d'
	printf 'function inDeque(k: int): bool {\n  false'
	for ((i = 0; i < n; i++)); do printf ' ||\n  (H <= %d && %d < T && items[%d] == k)' "$i" "$i" "$i"; done
	printf '\n}\n\nfunction accounted(k: int): bool { k >= nextTask || (taken[k] == 1) != inDeque(k) }\n\n'
	printf 'function quiescentOK(): bool {\n  busy != 0 || (true'
	for ((i = 1; i <= n; i++)); do printf ' && accounted(%d)' "$i"; done
	printf ')\n}\n\n'
	sed -n '/^layer 0 {/,/^}/p' bench/mc/chaselev.lip
	printf '\ninstance run {\n  thread owner(tid = 0) calls put, take max %d;\n' "$owner"
	printf '  thread thief(tid = 1..%d) calls steal max %d;\n  ints -2..%d;\n}\n' "$thieves" "$steals" $((n + 2))
}

# treiber N WORKERS CALLS: Treiber's stack for N pushed nodes.
treiber() {
	local n=$1 workers=$2 calls=$3 i j
	sed -n '1,/^\/\/ inStack(k)/p' bench/mc/treiber.lip | sed '$d'
	printf 'function inStack(k: int): bool {\n  top == k'
	local path="top"
	for ((i = 1; i < n; i++)); do path="next[$path]"; printf ' || %s == k' "$path"; done
	printf '\n}\n\nfunction accounted(k: int): bool { k >= alloc || (taken[k] == 1) != inStack(k) }\n\n'
	printf 'function quiescentOK(): bool {\n  busy != 0 || (true'
	for ((j = 1; j <= n; j++)); do printf ' && accounted(%d)' "$j"; done
	printf ')\n}\n\n'
	sed -n '/^layer 0 {/,/^}/p' bench/mc/treiber.lip
	printf '\ninstance run {\n  thread worker(tid = 1..%d) calls push, pop max %d;\n  ints -1..%d;\n}\n' "$workers" "$calls" $((n + 1))
}

# chaselev_pml N: bench/mc/chaselev.pml with room for N tasks (items,
# taken, inDeque and quiescentOK generated for N, as chaselev does for
# the lipton model); everything else is the benchmark file's.
chaselev_pml() {
	awk -v n="$1" '
		/^byte items\[/ { printf "byte items[%d];\n", n; next }
		/^byte taken\[/ { printf "byte taken[%d];\n", n + 1; next }
		/^#define (inDeque|accounted|quiescentOK)/ { skip = 1 }
		skip { if ($0 !~ /\\$/) skip = 0; if (!done) { gen(); done = 1 }; next }
		{ print }
		function gen(   i) {
			printf "#define inDeque(k) (false"
			for (i = 0; i < n; i++) printf " || \\\n\t(H <= %d && %d < T && items[%d] == k)", i, i, i
			printf ")\n#define accounted(k) (k >= nextTask || ((taken[k] == 1) != inDeque(k)))\n"
			printf "#define quiescentOK (busy != 0 || (true"
			for (i = 1; i <= n; i++) printf " && accounted(%d)", i
			printf "))\n"
		}' bench/mc/chaselev.pml
}

# treiber_pml N: bench/mc/treiber.pml with room for N pushed nodes
# (next, taken, inStack and quiescentOK generated for N).
treiber_pml() {
	local n=$1
	awk -v n="$n" '
		/^byte next\[/ { printf "byte next[%d];\n", n + 1; next }
		/^byte taken\[/ { printf "byte taken[%d];\n", n + 1; next }
		/^#define (inStack|accounted|quiescentOK)/ { skip = 1 }
		skip { if ($0 !~ /\\$/) skip = 0; if (!done) { gen(); done = 1 }; next }
		{ print }
		function gen(   i, path) {
			printf "#define inStack(k) (top == k"
			path = "top"
			for (i = 1; i < n; i++) { path = "next[" path "]"; printf " || \\\n\t%s == k", path }
			printf ")\n#define accounted(k) (k >= alloc || ((taken[k] == 1) != inStack(k)))\n"
			printf "#define quiescentOK (busy != 0 || (true"
			for (i = 1; i <= n; i++) printf " && accounted(%d)", i
			printf "))\n"
		}' bench/mc/treiber.pml
}
