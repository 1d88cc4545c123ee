#!/usr/bin/env bash
# bench/check.sh: for every proof of the corpus (broken variants aside),
# the number of obligations, the median wall time of `lipton check` over
# 5 runs, and its split into front end, obligation generation and Z3.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o bin/lipton ./cmd/lipton
echo "machine: $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
exec go run ./bench/checkbench -runs "${RUNS:-5}" "$@"
