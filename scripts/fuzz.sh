#!/bin/sh
# Runs each libFuzzer target for SECONDS on a copy of its saved corpus;
# new crashes are left in build-fuzz/crashes/ and fail the run.
# Usage: fuzz.sh SECONDS TARGET...
set -u
secs=$1; shift
mkdir -p build-fuzz/crashes
status=0
for t in "$@"; do
    name=${t##*/}
    work=build-fuzz/corpus/$name
    mkdir -p "$work" "tests/fuzz/corpus/$name"
    cp -n tests/fuzz/corpus/"$name"/* "$work"/ 2>/dev/null || true
    if "$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix=build-fuzz/crashes/"$name"- "$work" >build-fuzz/"$name".log 2>&1; then
        echo "fuzz $name: ${secs}s, $(ls "$work" | wc -l) inputs, no crash"
    else
        echo "fuzz $name: FAILED, see build-fuzz/$name.log"; tail -30 build-fuzz/"$name".log
        status=1
    fi
done
exit $status
