#!/bin/bash
# Objective: the builds packagers and benchmarkers run compile without a
# warning in vsw's own code: CMAKE_BUILD_TYPE=Release with gcc and clang
# (gcc's RelWithDebInfo is tools/build's own, VSW_WERROR=ON, on every run;
# clang's warnings come from its front end, the same at -O2 and -O3, and
# tools/fuzz builds the libraries with clang RelWithDebInfo and
# VSW_WERROR=ON too).  Each is configured as a user would, plus
# VSW_WERROR=ON so that a warning fails here; a plain configure leaves
# warnings warnings (gcc 12 at -O3 once turned -Wformat-truncation in
# tools/vsw-vsctl/colset.c into an error for everyone).
# Usage: release_build.sh SRC_DIR WORK_DIR
set -euo pipefail
src=${1:?source dir}
work=${2:?work dir}
mkdir -p "$work"
built=0
build() { # $1: compiler, $2: build type
	local dir="$work/$1-$2" log
	log="$dir.log"
	if ! command -v "$1" >/dev/null; then
		echo "build $1 $2: no $1 installed, skipped"
		return 0
	fi
	if ! CC=$1 cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE="$2" \
		-DVSW_WERROR=ON >"$log" 2>&1 ||
		! cmake --build "$dir" -j"$(nproc)" >>"$log" 2>&1; then
		grep -E 'error|warning' "$log" | head -20
		echo "FAIL: $1 $2 build (log $log)"
		exit 1
	fi
	echo "build $1 $2: clean ($(grep -c 'warning:' "$log") warnings)"
	built=$((built + 1))
}
build gcc Release
build clang Release
[ "$built" -gt 0 ] || { echo "SKIP: neither gcc nor clang"; exit 77; }
echo "PASS: $built builds without warnings"
