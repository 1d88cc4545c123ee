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
# TEST_PACKAGES are what ./run.sh test needs beyond PACKAGES: Chromium
# renders the HTML report (lipton show --html) in htmlreport's browser
# test.
TEST_PACKAGES=(chromium)

# apt-get waits for another apt-get or dpkg (an unattended upgrade, a
# second install) that holds the package lock: APT_LOCK_RETRIES tries,
# APT_LOCK_WAIT seconds apart.
APT_LOCK_RETRIES=${APT_LOCK_RETRIES:-10}
APT_LOCK_WAIT=${APT_LOCK_WAIT:-5}
SUDO=""

install_missing() {
	local missing=()
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "run.sh: installing ${missing[*]}" >&2
	[ "$(id -u)" -ne 0 ] && SUDO="sudo"
	apt_get update -qq
	apt_get install -y -qq "${missing[@]}" >/dev/null
}

# apt_get runs apt-get with the given arguments. When it fails because
# another process holds the dpkg/apt lock, it says so and retries; any
# other failure, or the lock still held after the last try, is fatal
# with apt-get's message and a hint.
apt_get() {
	local log attempt
	log=$(mktemp)
	for ((attempt = 1; ; attempt++)); do
		if DEBIAN_FRONTEND=noninteractive $SUDO apt-get "$@" 2>"$log"; then
			rm -f "$log"
			return 0
		fi
		if ! grep -qiE 'could not get lock|unable to acquire the dpkg|unable to lock' "$log"; then
			cat "$log" >&2
			rm -f "$log"
			return 1
		fi
		local holder
		holder=$(grep -oE 'held by process [0-9]+( \([^)]*\))?' "$log" | head -n 1 || true)
		if [ "$attempt" -ge "$APT_LOCK_RETRIES" ]; then
			cat "$log" >&2
			rm -f "$log"
			echo "run.sh: another package manager (apt-get, dpkg, unattended-upgrades) still holds the package lock${holder:+ ($holder)}." >&2
			echo "run.sh: wait until it has finished (ps -e | grep -E 'apt|dpkg' shows it), then run ./run.sh again," >&2
			echo "run.sh: or install the packages yourself: sudo apt-get install ${PACKAGES[*]}" >&2
			return 1
		fi
		echo "run.sh: another apt-get or dpkg holds the package lock${holder:+ ($holder)}; retrying in ${APT_LOCK_WAIT}s (try $attempt of $APT_LOCK_RETRIES)" >&2
		sleep "$APT_LOCK_WAIT"
	done
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
	PACKAGES+=("${TEST_PACKAGES[@]}")
	install_missing
	build
	lint
	# go test stops a package's tests after 10 minutes by default; on a
	# fully loaded machine mc's alone can take longer (its CPU time is
	# about 4 minutes), and CI's own limit is 90 minutes.
	exec go test -timeout 60m ./...
	;;
*)
	echo "usage: ./run.sh check [FILE...] | ./run.sh test" >&2
	exit 2
	;;
esac
