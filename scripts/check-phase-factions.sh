#!/bin/sh
# The rule-point rule (docs/ARCHITECTURE.md "Rule points and power rows"):
# no phase file names a faction, nor a faction's advantage. Phase code asks
# a rule point (engine/points.c) and the powers are rows in
# engine/powers_*.c, each naming the advantage it grants; a faction
# constant other than ENGINE_FACTION_COUNT and ENGINE_FACTION_NONE, or an
# advantage constant other than ENGINE_ADVANTAGE_NONE, _BIT, _ALL, _BASIC,
# _BASIC_COUNT and _COUNT (masks and counts, no one advantage), in an
# engine/phase_*.c is a power written inline. Exits 1 naming each breach.
# Usage: check-phase-factions.sh [FILE...]   (default engine/phase_*.c)
#        check-phase-factions.sh --self-test (the check catches a breach)
set -u

scan() { # files...; prints each breach, returns 1 if any
    bad=0
    for f in "$@"; do
        hits=$(grep -n -o -E 'ENGINE_(FACTION|ADVANTAGE)_[A-Z_]*' "$f" |
               grep -v -E ':ENGINE_FACTION_(COUNT|NONE)$' |
               grep -v -E ':ENGINE_ADVANTAGE_(NONE|BIT|ALL|BASIC|BASIC_COUNT|COUNT)$' || true)
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
    printf 'int a(void) { return ENGINE_FACTION_COUNT + ENGINE_FACTION_NONE + ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_NONE); }\n' > "$dir/phase_ok.c"
    printf 'int b(int f) {\n    return f == ENGINE_FACTION_FREMEN;\n}\n' > "$dir/phase_bad.c"
    printf 'int c(void) {\n\n    return ENGINE_ADVANTAGE_BIT(ENGINE_ADVANTAGE_BG_VOICE);\n}\n' > "$dir/phase_adv.c"
    if ! scan "$dir/phase_ok.c" > /dev/null; then
        echo "phase-faction-check: self-test: a clean file was refused"; exit 1
    fi
    out=$(scan "$dir/phase_bad.c")
    case "$out" in
    *"phase_bad.c:2 names ENGINE_FACTION_FREMEN"*) ;;
    *) echo "phase-faction-check: self-test: a faction test was not caught"; exit 1 ;;
    esac
    out=$(scan "$dir/phase_adv.c")
    case "$out" in
    *"phase_adv.c:3 names ENGINE_ADVANTAGE_BG_VOICE"*) ;;
    *) echo "phase-faction-check: self-test: an advantage named was not caught"; exit 1 ;;
    esac
    echo "phase-faction-check: self-test passed"
    exit 0
fi

[ $# -eq 0 ] && set -- engine/phase_*.c
if scan "$@"; then
    echo "phase-faction-check: no phase file names a faction or an advantage"
else
    exit 1
fi
