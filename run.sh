#!/usr/bin/env bash
# run.sh: set up, build and run lipton. The README's two commands:
#
#   ./run.sh check   install what is missing, build, check the Chase-Lev proof
#   ./run.sh test    install what is missing, build, run the test suite
#
# System packages (libz3-dev for the Z3 binding, z3 for cross-checking
# SMT-LIB dumps, gcc for cgo) are installed with apt-get when absent.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(libz3-dev z3 gcc)

install_missing() {
	local missing=()
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "run.sh: installing ${missing[*]}" >&2
	local sudo=""
	[ "$(id -u)" -ne 0 ] && sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

build() {
	go build -o bin/lipton ./cmd/lipton
}

case "${1:-}" in
check)
	install_missing
	build
	shift
	[ $# -eq 0 ] && set -- proofs/chaselev/chaselev.lip
	exec ./bin/lipton check "$@"
	;;
test)
	install_missing
	build
	go vet ./...
	exec go test ./...
	;;
*)
	echo "usage: ./run.sh check [FILE...] | ./run.sh test" >&2
	exit 2
	;;
esac
