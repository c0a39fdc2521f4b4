#!/bin/bash
# The key tables of docs/configuration.md are the table of config/keys.c:
# each block between "<!-- T keys: begin" and "<!-- T keys: end -->" (T =
# switch, port) must equal what `vsw --help-config --markdown` prints for
# it.  After a key changes: vsw --help-config --markdown, and paste.
# Usage: doc_config_keys.sh VSW_BINARY DOC
set -u
vsw=$1 doc=$2
gen=$("$vsw" --help-config --markdown) || {
	echo "FAIL: $vsw --help-config --markdown exited $?"
	exit 1
}
rc=0
for t in switch port; do
	block() { sed -n "/^<!-- $t keys: begin/,/^<!-- $t keys: end -->\$/p"; }
	want=$(printf '%s\n' "$gen" | block)
	have=$(block <"$doc")
	n=$(grep -c "^<!-- $t keys: begin" "$doc")
	if [ -z "$want" ] || [ "$n" -ne 1 ]; then
		echo "FAIL: $t keys: $n tables in $doc, ${#want} bytes generated; expected one each"
		rc=1
	elif [ "$want" != "$have" ]; then
		echo "FAIL: the $t key table of $doc differs from vsw --help-config --markdown (< doc, > table):"
		diff <(printf '%s\n' "$have") <(printf '%s\n' "$want")
		rc=1
	fi
done
[ "$rc" -ne 0 ] || echo "PASS: $doc lists every key of config/keys.c as it is"
exit "$rc"
