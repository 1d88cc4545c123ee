#!/usr/bin/env bash
# bench/check.sh: for every proof of the corpus (broken variants aside),
# the number of obligations and the medians over 5 runs of the checker's
# CPU time, wall time and its split into front end, obligation generation
# and Z3. It runs package check in-process (bench/checkbench).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
exec go run ./bench/checkbench -runs "${RUNS:-5}" "$@"
