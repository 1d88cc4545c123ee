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

# lint runs the static analyses the project keeps clean: gofmt, go vet
# and staticcheck (installed into the Go bin directory when missing).
STATICCHECK_VERSION=v0.8.2

lint() {
	local unformatted
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
	if [ -n "$unformatted" ]; then
		echo "run.sh: gofmt would change:" >&2
		echo "$unformatted" >&2
		return 1
	fi
	go vet ./...
	local sc
	sc="$(go env GOPATH)/bin/staticcheck"
	if ! "$sc" -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
		echo "run.sh: installing staticcheck $STATICCHECK_VERSION" >&2
		go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
	fi
	"$sc" ./...
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
	lint
	exec go test ./...
	;;
*)
	echo "usage: ./run.sh check [FILE...] | ./run.sh test" >&2
	exit 2
	;;
esac
