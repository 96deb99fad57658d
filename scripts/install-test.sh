#!/bin/sh
# install-test.sh - `make install` into a temporary prefix, then what a
# game server does with it: build tests/install/play.c with `pkg-config
# --cflags --libs mentat` (shared) and `--static` (libmentat.a), run both,
# and check the library: its soname, and that it exports the public API
# only (engine_, codec_, ledger_, inspect_; no internal __ name, nothing
# generated). Also the man page, the installed command, and that the
# installed `mentat serve`, started outside the tree, serves the installed
# web client. Called by
# `make test`; removes the prefix when done.
set -eu
prefix=$(mktemp -d "${TMPDIR:-/tmp}/mentat-install-XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install-check: $*" >&2; exit 1; }
make --no-print-directory install PREFIX="$prefix" > "$prefix/install.log" 2>&1 \
    || { cat "$prefix/install.log" >&2; fail "make install failed"; }
lib="$prefix/lib/libmentat.so.1.0.0"
for f in "$lib" "$prefix/lib/libmentat.so" "$prefix/lib/libmentat.so.1" "$prefix/lib/libmentat.a" \
         "$prefix/lib/pkgconfig/mentat.pc" "$prefix/bin/mentat" \
         "$prefix/share/man/man1/mentat.1" "$prefix/include/mentat/ledger/ledger.h"; do
    [ -e "$f" ] || fail "$f is not installed"
done
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libmentat.so.1 ] || fail "soname is '$soname', not libmentat.so.1"
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDRB]/ {print $3}' | sed 's/@.*//')
n_exported=$(echo "$exported" | grep -c .)
bad=$(echo "$exported" | grep -v -E '^(engine|codec|ledger|inspect)_[a-z]' || true)
internal=$(echo "$exported" | grep -E '^[a-z]+__' || true)
[ -z "$bad$internal" ] || fail "exports beyond the public API: $(echo $bad $internal | head -c 400)"
[ "$n_exported" -gt 50 ] || fail "only $n_exported symbols exported"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --exists mentat || fail "pkg-config does not find mentat"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror tests/install/play.c $(pkg-config --cflags --libs mentat) \
    -o "$prefix/play" || fail "the game server does not build against the shared library"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror tests/install/play.c $(pkg-config --cflags mentat) \
    "$prefix/lib/libmentat.a" $(pkg-config --libs-only-l --static mentat | sed 's/-lmentat//') \
    -o "$prefix/play-static" || fail "the game server does not build against libmentat.a"
mkdir "$prefix/g1" "$prefix/g2"
out=$(LD_LIBRARY_PATH="$prefix/lib" "$prefix/play" "$prefix/g1") || fail "play (shared): $out"
out2=$("$prefix/play-static" "$prefix/g2") || fail "play (static): $out2"
ldd "$prefix/play" | grep -q "libmentat.so.1 => $prefix/lib" 2>/dev/null \
    || LD_LIBRARY_PATH="$prefix/lib" ldd "$prefix/play" | grep -q "libmentat.so.1 => $prefix" \
    || fail "play does not load the installed libmentat.so.1"
"$prefix/bin/mentat" --help > /dev/null || fail "the installed mentat does not run"
grep -q '^\.TH MENTAT 1' "$prefix/share/man/man1/mentat.1" || fail "mentat.1 is no man page"
# The installed server finds the installed web client from anywhere.
[ -e "$prefix/share/mentat/web/index.html" ] || fail "the web client is not installed"
mkdir "$prefix/srv"
(cd "$prefix/srv" && exec "$prefix/bin/mentat" --keys keys keygen > /dev/null) || fail "keygen"
(cd "$prefix/srv" && exec "$prefix/bin/mentat" --keys keys serve --listen 127.0.0.1:0 --json \
    > out.json 2> err.txt) &
srv=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' "$prefix/srv/out.json" 2>/dev/null || true)
    [ -n "$port" ] && break
    sleep 0.1
done
page=$(curl -s -m 5 "http://127.0.0.1:$port/" || true)
kill -TERM "$srv"; wait "$srv" || true
[ -n "$port" ] || fail "the installed mentat serve did not start: $(cat "$prefix/srv/err.txt")"
echo "$page" | grep -q '<html' || fail "the installed mentat serve serves no web client at /"
if grep -q 'no web client' "$prefix/srv/err.txt"; then fail "the installed mentat serve warns: $(cat "$prefix/srv/err.txt")"; fi
echo "install-check: $n_exported symbols exported, all public; $out"
