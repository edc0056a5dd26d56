#!/usr/bin/env bash
# The conventions of an installed tool, against the binary's own --help:
#   installed_tool.sh TSCAUDIT SOURCE_DIR CASE
#     CASE: man-page | library-man-page | completion | completion-zsh | completion-fish
# man-page: tscaudit(1) renders without a warning (groff -ww, man -l) and names every option
# of every command. library-man-page: the library's pages (tscaudit_quick_check(3),
# tscaudit_state_open(3), tscaudit_stamp(3)) render without a warning (groff -ww, man
# --warnings, as lintian reads it), their SYNOPSIS sections declare the structs and functions
# of include/tscaudit.h as the header does, and they name every constant of the header.
# completion, completion-zsh, completion-fish: the shell's completion (bash's, zsh's through
# its completion system in a pseudo-terminal, fish's `complete -C`) offers every command,
# every option of each and no other, the read variants, the formats, and directories where
# an option takes one. Exit 0 ok, 1 failed (the reason printed), 4 skipped.
set -u
tscaudit=$1
src=$2
case_name=$3
fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}

# The commands, from the top-level help's "Commands:" list.
commands=$("$tscaudit" --help | sed -n '/^Commands:/,/^$/p' | grep -oE '^  [a-z]+' | tr -d ' ' | sort)
[ "$(wc -w <<<"$commands")" -ge 11 ] || fail "no command list in tscaudit --help"
# The long options of `tscaudit COMMAND --help`, one per line (CLI11 prints them indented).
options_of() { "$tscaudit" "$1" --help | grep -oE '^ +(-h,)?--[a-z0-9-]+' | sed -E 's/^ +(-h,)?//' | sort -u; }

# offers_as_documented: what complete_words (the case's shell) offers: the commands, each
# command's options (all of --help's, no other), every read variant after --recv, the formats
# of each command, the transports, directories after --from and none after --cpus.
offers_as_documented() {
  got=$(complete_words tscaudit "" | grep -vx -- '--help\|--version' | tr '\n' ' ')
  [ "$got" = "$(tr '\n' ' ' <<<"$commands")" ] || fail "commands: got '$got'"
  [ "$(complete_words tscaudit ch)" = check ] || fail "'ch' does not complete to check"
  for c in $commands; do
    offered=$(complete_words tscaudit "$c" --)
    for o in $(options_of "$c"); do
      grep -qx -- "$o" <<<"$offered" || fail "$c: $o is not offered"
    done
    for o in $offered; do
      options_of "$c" | grep -qx -- "$o" || fail "$c: $o is offered but $c has no such option"
    done
  done
  # The list in --variant's description, which the help wraps over lines.
  variants=$("$tscaudit" measure --help | sed -n '/^  --variant /,/)/p' | tr '\n' ' ' |
    sed -n 's/^[^(]*(\([^)]*\)).*/\1/p' | tr -d ',' | tr -s ' ' '\n' | sed '/^$/d' | sort)
  [ -n "$variants" ] || fail "no variant list in measure --help"
  [ "$(complete_words tscaudit check --recv "")" = "$variants" ] || fail "--recv does not offer every variant"
  [ "$(complete_words tscaudit monitor --send lfence_rdtsc_)" = lfence_rdtsc_lfence ] || fail "--send prefix"
  [ "$(complete_words tscaudit check --format o)" = openmetrics ] || fail "check --format o"
  [ "$(complete_words tscaudit analyze --format c)" = csv ] || fail "analyze --format c"
  [ "$(complete_words tscaudit measure --transport q)" = queue ] || fail "--transport q"
  [ -z "$(complete_words tscaudit check --cpus "")" ] || fail "a CPU list is offered words"
  # Directories after --from, from the working directory: a directory and a file beside it.
  local here
  here=$(mktemp -d) || fail "mktemp"
  mkdir "$here/runs" && touch "$here/notes.txt"
  got=$(cd "$here" && complete_words tscaudit check --from "" | sed 's:/$::' | tr '\n' ' ')
  rm -rf "$here"
  [ "$got" = "runs " ] || fail "--from offers '$got', not the directory alone"
}

case $case_name in
  man-page)
    command -v groff >/dev/null || { echo "SKIPPED: groff is not installed"; exit 4; }
    page="$src/man/tscaudit.1"
    warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
    [ -z "$warnings" ] || fail "groff warns: $warnings"
    if command -v man >/dev/null; then
      text=$(MANWIDTH=80 man -l "$page" 2>&1) || fail "man -l failed"
      [[ $text == *"EXIT STATUS"* ]] || fail "man -l rendered no EXIT STATUS section"
    fi
    plain=$(sed 's/\\-/-/g' "$page")
    for c in $commands; do
      [[ $plain == *"tscaudit $c"* ]] || fail "the page has no section for $c"
      for o in $(options_of "$c"); do
        grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" <<<"$plain" || fail "$c $o is not in the man page"
      done
    done
    ;;

  library-man-page)
    command -v groff >/dev/null || { echo "SKIPPED: groff is not installed"; exit 4; }
    # The library's pages: tscaudit_quick_check(3), tscaudit_state_open(3), tscaudit_stamp(3).
    pages=("$src"/man/tscaudit_*.3)
    [ "${#pages[@]}" -ge 3 ] || fail "the library's man pages are not all there: ${pages[*]}"
    for page in "${pages[@]}"; do
      warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
      [ -z "$warnings" ] || fail "$page: groff warns: $warnings"
      if command -v man >/dev/null; then
        warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
        [ -z "$warnings" ] || fail "$page: man --warnings warns: $warnings"
      fi
    done
    # The declarations one a line, blanks collapsed: the header's without its comments, and
    # the SYNOPSIS sections of the pages together as they render (wide enough for no line to
    # wrap).
    squeeze() { sed -E 's/[[:space:]]+/ /g; s/^ //; s/ $//' | grep -v '^$'; }
    # An inline function of the header is declared by its first line: the SYNOPSIS shows what
    # a caller calls, not the body.
    header=$(perl -0777 -pe 's{/\*.*?\*/}{}gs; s#^(static inline [^\n\{]*\))\s*\{.*?^\}#$1;#gms' "$src/include/tscaudit.h")
    text="" synopsis=""
    for page in "${pages[@]}"; do
      one=$(groff -man -Tascii -P-cbou -rLL=250n "$page" 2>/dev/null)
      text+=$one$'\n'
      synopsis+=$(sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p' <<<"$one" | sed '1d;$d' | squeeze)$'\n'
    done
    for s in tscaudit_options tscaudit_result tscaudit_state_info; do
      want=$(sed -n "/^struct $s {/,/^};/p" <<<"$header" | squeeze)
      got=$(sed -n "/^struct $s {/,/^};/p" <<<"$synopsis")
      [ -n "$want" ] || fail "the header has no struct $s"
      [ "$got" = "$want" ] || fail "struct $s in the SYNOPSIS is not the header's: $(diff <(echo "$want") <(echo "$got"))"
    done
    # Each function in one page's SYNOPSIS, in any order.
    want=$(grep -E '\(.*\);$' <<<"$header" | squeeze | sort)
    got=$(grep -E '\(.*\);$' <<<"$synopsis" | sort)
    [ "$(wc -l <<<"$want")" -ge 12 ] || fail "the header's functions were not found"
    [ "$got" = "$want" ] || fail "the SYNOPSIS's functions are not the header's: $(diff <(echo "$want") <(echo "$got"))"
    for c in $(grep -oE '\bTSCAUDIT_[A-Z_]+' <<<"$header" | sort -u | grep -vx TSCAUDIT_H); do
      grep -qw -- "$c" <<<"$text" || fail "$c is not in the pages"
    done
    ;;

  completion)
    # shellcheck source=/dev/null
    source "$src/contrib/bash-completion/tscaudit"
    complete_words() { # the completions of the command line "$@" (its last word is completed)
      COMP_WORDS=("$@")
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
      COMPREPLY=()
      _tscaudit
      printf '%s\n' "${COMPREPLY[@]}" | sort
    }
    offers_as_documented
    [ "$(complete_words tscaudit check --export-pairs --sequ)" = --sequential ] || fail "after a flag"
    ;;

  completion-zsh)
    command -v zsh >/dev/null || { echo "SKIPPED: zsh is not installed"; exit 4; }
    zsh -fc 'zmodload zsh/zpty' 2>/dev/null || { echo "SKIPPED: zsh has no zpty module"; exit 4; }
    # The completions of the command line "$@" (its last word is completed); a completion that
    # fails or hangs offers nothing, which the checks then name.
    complete_words() { timeout 30 zsh "$src/tests/fleet/zsh_complete.zsh" "$src/contrib/zsh-completion" "$*"; }
    offers_as_documented
    ;;

  completion-fish)
    command -v fish >/dev/null || { echo "SKIPPED: fish is not installed"; exit 4; }
    # The completions of the command line "$@" (its last word is completed): fish prints
    # "MATCH<TAB>description", without the user's configuration.
    complete_words() {
      fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$src/contrib/fish-completion/tscaudit.fish" "$*" |
        cut -f1 | sort
    }
    offers_as_documented
    ;;

  *) fail "unknown case" ;;
esac
echo "ok: $case_name"
