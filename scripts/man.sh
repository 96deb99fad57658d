#!/bin/sh
# man.sh - writes the mentat(1) man page (roff) on standard output from
# docs/CLI.md, the command reference, so the two never disagree: the first
# "#" heading names the page, every other "#" is a section, "##" a
# subsection per command, "###" a tagged one; paragraphs, ``` blocks as
# literal examples, tables as tagged paragraphs (the header row dropped),
# `code` in bold, [links](to) as their text. Usage: sh scripts/man.sh
# docs/CLI.md VERSION. Never edits its input.
set -eu
awk -v version="${2:-1}" '
function text(s,    out, i, n, parts) {
    gsub(/\\/, "\\e", s)
    while (match(s, /\[[^]]*\]\([^)]*\)/)) {
        link = substr(s, RSTART, RLENGTH)
        sub(/\]\(.*$/, "", link)
        s = substr(s, 1, RSTART - 1) substr(link, 2) substr(s, RSTART + RLENGTH)
    }
    out = ""
    n = split(s, parts, "`")
    for (i = 1; i <= n; i++)
        out = out (i % 2 == 0 ? "\\fB" parts[i] "\\fR" : parts[i])
    gsub(/\*\*/, "", out)
    sub(/^[.\x27]/, "\\\\\\&&", out)
    return out
}
function flush() { if (pending != "") print pending; pending = "" }
BEGIN { in_code = 0; pending = ""; named = 0
        print ".TH MENTAT 1 \"\" \"mentat " version "\" \"User Commands\"" }
/^```/ {
    flush()
    if (in_code) { print ".fi"; print ".RE"; in_code = 0 }
    else { print ".RS 4"; print ".nf"; in_code = 1 }
    next
}
in_code { line = $0; gsub(/\\/, "\\e", line); sub(/^[.\x27]/, "\\\\\\&&", line); print line; next }
/^\| *-/ { pending = ""; next }
/^\|/ {
    flush()
    line = $0; sub(/^\| */, "", line); sub(/ *\|$/, "", line)
    n = split(line, cell, / *\| */)
    rest = ""
    for (i = 2; i <= n; i++) rest = rest (i > 2 ? "; " : "") cell[i]
    pending = ".TP\n" text(cell[1]) "\n" text(rest)
    next
}
{ flush() }
/^# / {
    sub(/^# /, "")
    if (!named) { print ".SH NAME"; print "mentat \\- the command of Mentat, a signed, replayable ledger for Dune"; named = 1; next }
    print ".SH " toupper(text($0)); next
}
/^## / { sub(/^## /, ""); print ".SS " text($0); next }
/^### / { sub(/^### /, ""); print ".SS " text($0); next }
/^$/ { print ".PP"; next }
{ print text($0) }
END { flush() }
' "$1"
