#!/bin/bash
# The counter and drop-reason tables of docs/telemetry.md are the tables
# of config/vsw_counters.h and datapath/stats.h: each block between
# "<!-- T: begin" and "<!-- T: end -->" (T = port counters, drop reasons)
# must equal what `vsw --help-counters --markdown` prints for it.  After
# a counter or reason changes: vsw --help-counters --markdown, and paste.
# Usage: doc_counters.sh VSW_BINARY DOC
set -u
vsw=$1 doc=$2
gen=$("$vsw" --help-counters --markdown) || {
	echo "FAIL: $vsw --help-counters --markdown exited $?"
	exit 1
}
rc=0
for t in "port counters" "drop reasons"; do
	block() { sed -n "/^<!-- $t: begin/,/^<!-- $t: end -->\$/p"; }
	want=$(printf '%s\n' "$gen" | block)
	have=$(block <"$doc")
	n=$(grep -c "^<!-- $t: begin" "$doc")
	if [ -z "$want" ] || [ "$n" -ne 1 ]; then
		echo "FAIL: $t: $n tables in $doc, ${#want} bytes generated; expected one each"
		rc=1
	elif [ "$want" != "$have" ]; then
		echo "FAIL: the $t table of $doc differs from vsw --help-counters --markdown (< doc, > table):"
		diff <(printf '%s\n' "$have") <(printf '%s\n' "$want")
		rc=1
	fi
done
[ "$rc" -ne 0 ] || echo "PASS: $doc lists every port counter and drop reason as vsw has them"
exit "$rc"
