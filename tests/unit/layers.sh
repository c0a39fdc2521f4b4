#!/bin/bash
# Objective: the layers of vsw point one way (docs/architecture.md):
#   common < config < port < datapath < control < ovsdb < api < the program
# Two checks, each failing on the first file that breaks the rule:
#  1. includes: every #include "..." of a header outside the file's own
#     folder names that folder ("datapath/fdb.h", not "fdb.h"), and the
#     folder is one the file's layer may use (below it; datapath, control
#     and api use only port/port.h of the port layer; api may read
#     datapath's headers; tools/ use config/, the shared telemetry
#     client tools/telclient and their own folder);
#  2. calls: no object of a layer's library refers to a vsw_ symbol that
#     only a higher layer's library defines (nm), so no two files of
#     different layers call each other.
# Usage: layers.sh SRC_DIR BUILD_DIR
set -euo pipefail
src=${1:?source dir}
build=${2:?build dir}
cd "$src"
bad=0
fail() { echo "layers: $*"; bad=1; }

# layer rank of a folder (empty: not a daemon layer)
rank() {
	case $1 in
	common) echo 0 ;; config) echo 1 ;; port) echo 2 ;;
	switch/datapath) echo 3 ;; switch/control) echo 4 ;; switch/ovsdb) echo 5 ;;
	switch/api) echo 6 ;; switch) echo 7 ;; *) echo "" ;;
	esac
}
# the folder an include names ("datapath/fdb.h" -> switch/datapath)
target_dir() {
	case $1 in
	common/* | config/* | port/*) dirname "$1" ;;
	datapath/* | control/* | ovsdb/* | api/*) echo "switch/$(dirname "$1")" ;;
	*/*) dirname "$1" ;;
	*) echo "" ;;
	esac
}

# 1. includes
while IFS= read -r f; do
	dir=$(dirname "$f")
	r=$(rank "$dir")
	while IFS= read -r inc; do
		[ -n "$inc" ] || continue
		if [[ $inc != */* ]]; then
			[ -f "$dir/$inc" ] ||
				fail "$f: #include \"$inc\" is not in $dir: name its folder"
			continue
		fi
		t=$(target_dir "$inc")
		[ -f "$inc" ] || [ -f "switch/$inc" ] || { fail "$f: #include \"$inc\": no such header"; continue; }
		[ "$t" = "$dir" ] && { fail "$f: #include \"$inc\": its own folder, by the bare name"; continue; }
		case $dir in
		tools/*)
			[[ $t == config || $t == tools/telclient ]] ||
				fail "$f: #include \"$inc\": tools use config/, tools/telclient and their own folder"
			continue ;;
		tests/* | switch) continue ;; # the program and the tests use any layer
		esac
		tr=$(rank "$t")
		if [ -z "$r" ] || [ -z "$tr" ] || [ "$tr" -ge "$r" ]; then
			fail "$f: #include \"$inc\": $t is not below $dir"
		elif [ "$t" = port ] && [ "$r" -ge 3 ] && [ "$inc" != port/port.h ]; then
			fail "$f: #include \"$inc\": the switch uses port/port.h alone"
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done < <(git ls-files 'common/*.[ch]' 'config/*.[ch]' 'port/*.[ch]' 'switch/*.[ch]' \
	'switch/*/*.[ch]' 'tools/*/*.[ch]')

# 2. calls, through the layers' libraries
libs=(common config port datapath control ovsdb api)
declare -A owner
for i in "${!libs[@]}"; do
	a=$build/libvsw_${libs[$i]}.a
	[ -f "$a" ] || { echo "SKIP: $a not built"; exit 77; }
	while read -r sym; do owner[$sym]=$i; done < <(nm -g --defined-only "$a" 2>/dev/null |
		awk '$2 ~ /[TDBR]/ && $3 ~ /^vsw_/ {print $3}')
done
for i in "${!libs[@]}"; do
	a=$build/libvsw_${libs[$i]}.a
	while read -r sym; do
		o=${owner[$sym]:-}
		[ -n "$o" ] && [ "$o" -gt "$i" ] &&
			fail "libvsw_${libs[$i]}.a calls $sym of libvsw_${libs[$o]}.a, a layer above"
	done < <(nm -u "$a" 2>/dev/null | awk '$2 ~ /^vsw_/ {print $2}' | sort -u)
done
[ "$bad" -eq 0 ] || exit 1
echo "PASS: includes name their layer and point down; no library calls a layer above"
