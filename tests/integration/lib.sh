#!/bin/bash
# The integration tests' helpers: tools/lib/harness.sh (also tools/soak's),
# sourced from here so that each test keeps `. "$(dirname "$0")/lib.sh"`.
VSW_SRC=${VSW_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=../../tools/lib/harness.sh
. "$VSW_SRC/tools/lib/harness.sh"
