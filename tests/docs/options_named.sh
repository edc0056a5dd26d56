#!/usr/bin/env bash
# Every option that a message, a help text or a report of the tool names is an option of the
# tool, described in the man page: a reader told "--over-budget" finds it in tscaudit(1).
#   options_named.sh SOURCE_DIR
# The options are read from the string literals of the sources (comments left out), the man
# page's from its .B and .BI lines. Exit 0 when every one is there; 1 naming each missing one
# and a file that names it.
set -u
src=$1
cd "$src" || exit 1
# Options in string literals, not in // comments: "... --max-bound ..." .
named=$(grep -rhE '"[^"]*--[a-z][a-z0-9-]+' --include='*.cpp' --include='*.hpp' src analysis |
  grep -vE '^\s*//' | grep -oE '"[^"]*"' | grep -oE -- '(^|[^a-z0-9-])--[a-z][a-z0-9-]+' |
  grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
[ "$(wc -l <<<"$named")" -ge 40 ] || { echo "FAIL: only $(wc -l <<<"$named") options found in the sources' messages"; exit 1; }
# .B/.BI/.BR lines: "--budget", and the synopsis's "--version | --help".
documented=$(sed -n 's/\\-/-/g; /^\.B[IR]\? /p' man/tscaudit.1 | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
failed=0
for o in $named; do
  if ! grep -qx -- "$o" <<<"$documented"; then
    where=$(grep -rlF --include='*.cpp' --include='*.hpp' -e "$o" src analysis | head -1)
    echo "FAIL: $o is named in $where but is no option of tscaudit(1)"
    failed=1
  fi
done
[ "$failed" = 0 ] && echo "ok: the $(wc -l <<<"$named") options the messages name are all in the man page"
exit "$failed"
