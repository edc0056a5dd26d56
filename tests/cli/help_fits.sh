#!/bin/bash
# Every --help, the top level's and each command's, fits a terminal 100 columns wide: no line
# longer, no option whose value is CLI11's bare TEXT, and examples at the end of each.
# (That no word is split by the wrapping is checked by the unit tests of the help.)
#   help_fits.sh TSCAUDIT
set -u
tscaudit=$1
problems=0
fail() {
  echo "FAIL: $*"
  problems=$((problems + 1))
}

check_help() {
  local name=$1 text
  shift
  if ! text=$("$tscaudit" "$@" --help); then
    fail "$name: --help failed"
    return
  fi
  local n=0 line
  while IFS= read -r line; do
    n=$((n + 1))
    # Bytes, not characters: the help is ASCII, and anything else would count wider.
    local bytes
    bytes=$(LC_ALL=C printf '%s' "$line" | wc -c)
    ((bytes > 100)) && fail "$name, line $n: $bytes columns: $line"
    if [[ $line =~ (^|[^A-Za-z])TEXT([^A-Za-z]|$) ]]; then fail "$name, line $n: TEXT says nothing: $line"; fi
  done <<<"$text"
  grep -q '^Examples:$' <<<"$text" || fail "$name: no Examples:"
  grep -qE '^  tscaudit [a-z]' <<<"$text" || fail "$name: no example command line"
  echo "ok: $name ($n lines)"
}

check_help "tscaudit --help"
commands=$("$tscaudit" --help | sed -n '/^Commands:$/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ {print $1}')
[ -n "$commands" ] || fail "no commands in tscaudit --help"
count=0
for c in $commands; do
  check_help "tscaudit $c --help" "$c"
  count=$((count + 1))
done
((count == 11)) || fail "$count commands listed, expected 11"
((problems == 0)) || exit 1
echo "every help fits 100 columns ($count commands)"
