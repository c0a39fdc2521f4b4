#!/bin/bash
# A doc's generated tables are what the program prints: each block between
# "<!-- T: begin" and "<!-- T: end -->" in DOC must equal the same block of
# `COMMAND --markdown` (vsw --help-config: "switch keys", "port keys" of
# docs/configuration.md from config/keys.c; vsw --help-counters: "port
# counters", "drop reasons" of docs/telemetry.md from config/vsw_counters.h
# and datapath/stats.h).  After a row changes: run the command, and paste.
# Usage: doc_tables.sh "VSW_BINARY --help-X" DOC TABLE...
set -u
cmd=$1 doc=$2
shift 2
gen=$($cmd --markdown) || {
	echo "FAIL: $cmd --markdown exited $?"
	exit 1
}
rc=0
for t in "$@"; do
	block() { sed -n "/^<!-- $t: begin/,/^<!-- $t: end -->\$/p"; }
	want=$(printf '%s\n' "$gen" | block)
	have=$(block <"$doc")
	n=$(grep -c "^<!-- $t: begin" "$doc")
	if [ -z "$want" ] || [ "$n" -ne 1 ]; then
		echo "FAIL: $t: $n tables in $doc, ${#want} bytes generated; expected one each"
		rc=1
	elif [ "$want" != "$have" ]; then
		echo "FAIL: the $t table of $doc differs from $cmd --markdown (< doc, > generated):"
		diff <(printf '%s\n' "$have") <(printf '%s\n' "$want")
		rc=1
	fi
done
[ "$rc" -ne 0 ] || echo "PASS: $doc's tables ($*) are what $cmd prints"
exit "$rc"
