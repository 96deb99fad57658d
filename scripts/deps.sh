#!/bin/sh
# Installs the Debian packages Mentat builds and tests with, if any is
# missing. Called by `make run` and `make test`; safe to run again.
# (chromium: tests/inspect/test_render.c renders the board in a real
# browser; that test skips without it. libmicrohttpd: `mentat serve`;
# nodejs and npm: tests/server/test_web.c drives Chromium with
# puppeteer-core, which it installs from npm into tests/web/.)
set -eu
pkgs="build-essential pkg-config liblmdb-dev libprotobuf-c-dev protobuf-c-compiler
libsodium-dev libzstd-dev libcmocka-dev libsqlite3-dev clang libclang-rt-14-dev
clang-tidy chromium libmicrohttpd-dev curl nodejs"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
# npm: Debian's package, unless the installed nodejs carries its own.
command -v npm > /dev/null 2>&1 || missing="$missing npm"
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
