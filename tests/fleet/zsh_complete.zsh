#!/usr/bin/env zsh
# What zsh's completion system offers at the end of a command line, one match per line:
#   zsh_complete.zsh FPATH_DIR LINE
# An interactive zsh (zsh -f, no user's files) runs in a pseudo-terminal (zpty) with
# FPATH_DIR first in its fpath and compinit loaded; LINE is typed, then a TAB. compadd is
# wrapped to print each match it adds, marked, before zsh lists it; the shell exits after the
# completion (comppostfuncs). Exit 4 where zsh has no zpty module.
zmodload zsh/zpty 2>/dev/null || { print -u2 "zsh has no zpty module"; exit 4; }
fpath_dir=$1 line=$2
zpty shell zsh -f -i
zpty -w shell "PROMPT=; fpath=(${(q)fpath_dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w shell 'bindkey "^I" complete-word; compprefuncs=(); comppostfuncs=(exit)'
zpty -w shell 'zstyle ":completion:*" insert-tab false'
# Matches added with -O, -A or -D are not offered (a caller collects them): passed through.
zpty -w shell 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a hits; builtin compadd -A hits "$@"; (( $#hits )) || return 1
  print -rl -- "<""match>"${^hits}; builtin compadd "$@"; }'
zpty -w shell "${line}"$'\t'
# The output up to the shell's exit; a completion that hangs is cut by the caller's timeout.
while zpty -r shell chunk; do print -rn -- $chunk; done | tr -d '\r' | sed -n "s/^.*<match>//p" | sort -u
