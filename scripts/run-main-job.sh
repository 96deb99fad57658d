#!/bin/sh
# The main job, run by `make run` after the build, from the repository root:
# plays one six-player Basic game on ./mentat.db through the real append
# path with random legal actions and verifies it; plays four more to their
# end with Medium bots (`mentat games`, group commit on two cores, each
# game moved once through a backup into a fresh ledger and back) and
# verifies every room of the ledger; backs the first room up, restores the
# archive into a second ledger (./mentat-restored.db, made afresh each run)
# and verifies it there.
# Prints one line per step. Rerunnable: ./mentat.db keeps every room it made.
set -eu

MENTAT=./mentat
DB=./mentat.db
KEYS=./mentat.keys
BACKUP_DIR=./mentat-backup
RESTORED=./mentat-restored.db
FACTIONS=atreides,bene_gesserit,emperor,fremen,harkonnen,guild

say() { printf 'run: %s\n' "$*"; }
fail() { printf 'run: FAILED: %s\n' "$*" >&2; exit 1; }
# Runs mentat; its output, lines joined with "; ", goes to $out.
m() {
    if ! raw=$("$MENTAT" --keys "$KEYS" "$@"); then
        fail "mentat $*"
    fi
    out=$(printf '%s\n' "$raw" | paste -sd ';' - | sed 's/;/; /g')
}

[ -x "$MENTAT" ] || fail "no $MENTAT: run make first"

if [ -d "$KEYS" ]; then
    say "keys: using $KEYS"
else
    m keygen
    say "keys: $out"
fi

m --db "$DB" room create --players 6 --rules basic --factions "$FACTIONS"
room=$out
say "room: created $room in $DB (6 players, basic rules: $FACTIONS)"

m --db "$DB" play "$room"
say "play: $out"

m --db "$DB" verify "$room"
say "verify: $out"

m --db "$DB" games --players 6 --rules basic --games 4 --jobs 2 --continuations 1
say "games: $out"

m --db "$DB" verify --all
say "verify --all: $(printf '%s\n' "$raw" | tail -1)"

mkdir -p "$BACKUP_DIR"
archive="$BACKUP_DIR/$room.mentat-archive"
m --db "$DB" backup "$room" --out "$archive"
say "backup: $out"

rm -f "$RESTORED" "$RESTORED-lock"
m --db "$RESTORED" restore "$archive"
say "restore: $out (into $RESTORED)"

m --db "$RESTORED" verify "$room"
say "verify restored: $out"
