#!/usr/bin/env bash
# The conventions of an installed tool, against the binary's own --help:
#   installed_tool.sh TSCAUDIT SOURCE_DIR CASE        CASE: man-page | completion
# man-page: tscaudit(1) renders without a warning (groff -ww, man -l) and names every option
# of every command. completion: the bash completion offers every command, every option of
# each, the read variants and the formats. Exit 0 ok, 1 failed (the reason printed), 4 skipped.
set -u
tscaudit=$1
src=$2
case_name=$3
fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}

commands="analyze check info matrix measure monitor report simulate variants"
# The long options of `tscaudit COMMAND --help`, one per line (CLI11 prints them indented).
options_of() { "$tscaudit" "$1" --help | grep -oE '^ +(-h,)?--[a-z0-9-]+' | sed -E 's/^ +(-h,)?//' | sort -u; }

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
    got=$(complete_words tscaudit "" | tr '\n' ' ')
    [ "$got" = "--help --version analyze check info matrix measure monitor report simulate variants " ] ||
      fail "commands: got '$got'"
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
    variants=$("$tscaudit" measure --help | sed -n 's/.*--variant.*(\(.*\)).*/\1/p' | tr -d ',' | tr ' ' '\n' | sort)
    [ -n "$variants" ] || fail "no variant list in measure --help"
    [ "$(complete_words tscaudit check --recv "")" = "$variants" ] || fail "--recv does not offer every variant"
    [ "$(complete_words tscaudit monitor --send lfence_rdtsc_)" = lfence_rdtsc_lfence ] || fail "--send prefix"
    [ "$(complete_words tscaudit check --format o)" = openmetrics ] || fail "check --format o"
    [ "$(complete_words tscaudit analyze --format c)" = csv ] || fail "analyze --format c"
    [ "$(complete_words tscaudit measure --transport q)" = queue ] || fail "--transport q"
    [ -z "$(complete_words tscaudit check --cpus "")" ] || fail "a CPU list is offered words"
    [ "$(complete_words tscaudit check --export-pairs --sequ)" = --sequential ] || fail "after a flag"
    ;;

  *) fail "unknown case" ;;
esac
echo "ok: $case_name"
