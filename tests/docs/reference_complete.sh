#!/usr/bin/env bash
# Every option of every command, as the binary's own --help lists them, appears under its
# command in each place a reader looks for it: the man page (its "tscaudit COMMAND"
# subsection), docs/commands.md (its "tscaudit COMMAND" reference table) and the bash
# completion (what it offers after the command).
#   reference_complete.sh TSCAUDIT SOURCE_DIR
# Exit 0 when all are there; 1 naming each command and option missing, and where.
set -u
tscaudit=$1
src=$2
# The commands, from the top-level help's "Commands:" list.
commands=$("$tscaudit" --help | sed -n '/^Commands:/,/^$/p' | grep -oE '^  [a-z]+' | tr -d ' ')
[ "$(wc -w <<<"$commands")" -ge 9 ] || { echo "FAIL: no command list in tscaudit --help"; exit 1; }
# The long options of `tscaudit COMMAND --help` but --help itself, one per line.
options_of() { "$tscaudit" "$1" --help | grep -oE '^ +--[a-z0-9-]+' | sed -E 's/^ +//' | grep -vx -- --help | sort -u; }
# shellcheck source=/dev/null
source "$src/contrib/bash-completion/tscaudit"
failed=0
for c in $commands; do
  # The man page's subsection of the command, hyphens unescaped.
  man=$(sed 's/\\-/-/g' "$src/man/tscaudit.1" | awk -v h=".SS \"tscaudit $c\"" '$0 == h {on = 1; next} /^\.S[SH] / {on = 0} on')
  # docs/commands.md's table of the command, up to the next heading.
  md=$(awk -v h="### \`tscaudit $c\`" '$0 == h {on = 1; next} /^#/ {on = 0} on' "$src/docs/commands.md")
  COMP_WORDS=(tscaudit "$c" --)
  COMP_CWORD=2
  COMPREPLY=()
  _tscaudit
  offered=$(printf '%s\n' "${COMPREPLY[@]}")
  [ -n "$man" ] || { echo "FAIL: the man page has no subsection 'tscaudit $c'"; failed=1; }
  [ -n "$md" ] || { echo "FAIL: docs/commands.md has no reference table 'tscaudit $c'"; failed=1; }
  for o in $(options_of "$c"); do
    grep -qE -- "^\.BI? $o( |$)" <<<"$man" || { echo "FAIL: $c $o is not in the man page"; failed=1; }
    grep -qE -- "^\| \`$o[ \`]" <<<"$md" || { echo "FAIL: $c $o is not in docs/commands.md's reference"; failed=1; }
    grep -qx -- "$o" <<<"$offered" || { echo "FAIL: $c $o is not offered by the completion"; failed=1; }
  done
done
[ "$failed" -eq 0 ] && echo "ok: every option of every command is in the man page, commands.md and the completion"
exit "$failed"
