#!/bin/sh
# The layer rule (STYLE.md section 1): each folder includes only the
# project headers of the folders below it. Exits 1 naming each breach.
set -u
bad=0
check() { # folder, allowed folders (space separated)
    dir=$1; shift
    allowed="$dir $*"
    for f in $(find "$dir" -name '*.[ch]' 2>/dev/null); do
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
            inc=$(printf '%s' "$line" | sed 's/.*"\(.*\)".*/\1/')
            case "$inc" in
            */*) top=${inc%%/*} ;;
            *) top=$dir ;;            # a sibling header of the same folder
            esac
            case "$inc" in *.pb-c.h) top=schema ;; esac
            ok=0
            for a in $allowed; do [ "$a" = "$top" ] && ok=1; done
            if [ $ok -eq 0 ]; then
                echo "include-check: $f:${line%%:*} includes \"$inc\" ($dir may include: $allowed)"
                echo x >> "${TMPDIR:-/tmp}/mentat-include-bad.$$"
            fi
        done
        # only codec.c may include protobuf-c headers
        if [ "$f" != schema/codec.c ] && grep -q '^[[:space:]]*#[[:space:]]*include.*\(protobuf-c\|pb-c\.h\)' "$f"; then
            echo "include-check: $f includes protobuf-c (only schema/codec.c may)"
            echo x >> "${TMPDIR:-/tmp}/mentat-include-bad.$$"
        fi
    done
    # internal.h is the folder's own
    for f in $(grep -rl '#include "[a-z]*/internal.h"' --include='*.[ch]' . 2>/dev/null); do
        :
    done
}
rm -f "${TMPDIR:-/tmp}/mentat-include-bad.$$"
check engine
check schema engine
check ledger schema engine
check inspect ledger schema engine
check server inspect ledger schema engine
check tools server inspect ledger schema engine
# no folder includes another folder's internal.h
for f in $(find engine schema ledger inspect server tools -name '*.[ch]'); do
    d=${f%%/*}
    grep -n '#include "[a-z]*/internal.h"' "$f" | grep -v "\"$d/internal.h\"" | while IFS= read -r line; do
        echo "include-check: $f:${line%%:*} includes another folder's internal.h"
        echo x >> "${TMPDIR:-/tmp}/mentat-include-bad.$$"
    done
done
if [ -f "${TMPDIR:-/tmp}/mentat-include-bad.$$" ]; then
    rm -f "${TMPDIR:-/tmp}/mentat-include-bad.$$"
    exit 1
fi
echo "include-check: layers respected"
