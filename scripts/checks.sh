#!/bin/sh
# npm test before the suites: the build (`npm run build`: the SDK bundle and dist/, which the specs
# start and check) and the static checks (tsc --noEmit, then eslint and prettier --check), side by
# side. The build and the typecheck are each one thread and the type-aware lint is as slow as the
# typecheck, so on two cores the three together take little more than the slowest alone. The build
# emits without type-checking (--no-typecheck: 5 instead of 15 CPU-s, the same dist/ bytes): the
# typecheck beside it checks every file the build compiles, with the build's options plus mocha's
# types. Each one's output is printed whole once all are done; the run fails if any fails.
set -u
dir=$(mktemp -d)
tsx scripts/build.ts --no-typecheck > "$dir/build" 2>&1 &
build=$!
tsc --noEmit > "$dir/typecheck" 2>&1 &
typecheck=$!
{ eslint . && prettier --check . ; } > "$dir/lint" 2>&1 &
lint=$!
status=0
wait "$build" || status=1
echo "build (tsx scripts/build.ts --no-typecheck):"; cat "$dir/build"
wait "$typecheck" || status=1
echo "typecheck (tsc --noEmit):"; cat "$dir/typecheck"
wait "$lint" || status=1
echo "lint (eslint ., prettier --check .):"; cat "$dir/lint"
rm -rf "$dir"
[ "$status" -eq 0 ] && echo "checks: build, typecheck and lint passed"
exit "$status"
