#!/bin/sh
# The rule-point rule (docs/ARCHITECTURE.md "Rule points and power rows"):
# no phase file names a faction. Phase code asks a rule point
# (engine/points.c) and the powers are rows in engine/powers_*.c; a faction
# constant other than ENGINE_FACTION_COUNT and ENGINE_FACTION_NONE in an
# engine/phase_*.c is a power written inline. Exits 1 naming each breach.
# Usage: check-phase-factions.sh [FILE...]   (default engine/phase_*.c)
#        check-phase-factions.sh --self-test (the check catches a breach)
set -u

scan() { # files...; prints each breach, returns 1 if any
    bad=0
    for f in "$@"; do
        hits=$(grep -n -o 'ENGINE_FACTION_[A-Z_]*' "$f" |
               grep -v -E ':ENGINE_FACTION_(COUNT|NONE)$' || true)
        [ -z "$hits" ] && continue
        printf '%s\n' "$hits" | while IFS= read -r h; do
            echo "phase-faction-check: $f:${h%%:*} names ${h#*:} (ask a rule point instead, engine/points.c)"
        done
        bad=1
    done
    return $bad
}

if [ "${1:-}" = --self-test ]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    printf 'int a(void) { return ENGINE_FACTION_COUNT + ENGINE_FACTION_NONE; }\n' > "$dir/phase_ok.c"
    printf 'int b(int f) {\n    return f == ENGINE_FACTION_FREMEN;\n}\n' > "$dir/phase_bad.c"
    if ! scan "$dir/phase_ok.c" > /dev/null; then
        echo "phase-faction-check: self-test: a clean file was refused"; exit 1
    fi
    out=$(scan "$dir/phase_bad.c")
    case "$out" in
    *"phase_bad.c:2 names ENGINE_FACTION_FREMEN"*) ;;
    *) echo "phase-faction-check: self-test: a faction test was not caught"; exit 1 ;;
    esac
    echo "phase-faction-check: self-test passed"
    exit 0
fi

[ $# -eq 0 ] && set -- engine/phase_*.c
if scan "$@"; then
    echo "phase-faction-check: no phase file names a faction"
else
    exit 1
fi
