#!/bin/sh
# Runs every cmocka suite, then replays every fuzz corpus through its
# target, and prints one closing line: "tests: N passed, N failed".
# Usage: run-tests.sh BUILD SUITE... -- REPLAY...
set -u
build=$1; shift
passed=0; failed=0; failing=""
log=$(mktemp)
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    t=$1; shift
    if "$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    p=${p:-0}; f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -ne 0 ]; then
        failing="$failing ${t#$build/}"
        cat "$log"
    fi
    printf '%-50s %4s passed %3s failed\n' "${t#$build/}" "$p" "$f"
done
[ "${1:-}" = -- ] && shift
for r in "$@"; do
    name=${r##*/replay_}
    dir=tests/fuzz/corpus/$name
    if "$r" "$dir" >"$log" 2>&1; then
        passed=$((passed + 1))
        printf '%-50s %s\n' "corpus $name" "$(tail -1 "$log")"
    else
        failed=$((failed + 1)); failing="$failing corpus:$name"
        cat "$log"
    fi
done
rm -f "$log"
[ -n "$failing" ] && echo "failing:$failing"
echo "tests ($build): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
