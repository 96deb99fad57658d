#!/bin/sh
# Runs clang-tidy (.clang-tidy) on the source files given, one process per
# file on every core, and fails if any reports a finding. A file under
# tests/ is read with tests/support/lint.h first, which tells the analyzer
# that a failed cmocka assertion does not return.
# Usage: lint.sh BUILD FILE... (the Makefile passes its source lists)
set -u
build=$1
shift
jobs=$(nproc 2>/dev/null || echo 2)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
printf '%s\n' "$@" |
    xargs -P "$jobs" -I{} sh -c \
        'case "$1" in tests/*) pre="-include tests/support/lint.h" ;; *) pre="" ;; esac
         clang-tidy --quiet "$1" -- -std=c11 -I. -I"$2"/gen -D_DEFAULT_SOURCE $pre 2>/dev/null ||
         echo "lint: $1 failed" >&2' sh {} "$build" >"$out" 2>&1
if grep -q -E '(warning|error):|lint: .* failed' "$out"; then
    grep -E -A3 '(warning|error):|lint: .* failed' "$out"
    echo "lint: $(grep -c -E '(warning|error):' "$out") finding(s)"
    exit 1
fi
echo "lint: clean"
