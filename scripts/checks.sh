#!/bin/sh
# The static checks of `npm test`, side by side (the machine has two cores and the type-aware
# lint is as slow as the typecheck): tsc --noEmit, then eslint and prettier --check. Each one's
# output is printed whole once both are done; the run fails if either fails.
set -u
dir=$(mktemp -d)
tsc --noEmit > "$dir/typecheck" 2>&1 &
typecheck=$!
{ eslint . && prettier --check . ; } > "$dir/lint" 2>&1 &
lint=$!
status=0
wait "$typecheck" || status=1
echo "typecheck (tsc --noEmit):"; cat "$dir/typecheck"
wait "$lint" || status=1
echo "lint (eslint ., prettier --check .):"; cat "$dir/lint"
rm -rf "$dir"
[ "$status" -eq 0 ] && echo "checks: typecheck and lint passed"
exit "$status"
