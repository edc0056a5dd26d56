#!/bin/bash
# The transcript runner: commands as a reader types them, with the output they must print.
#
#   transcript.sh TSCAUDIT SOURCE_DIR SCRATCH FILE.t      a transcript (tests/cli/transcripts/)
#   transcript.sh --markdown TSCAUDIT SOURCE_DIR DOC.md   the examples of a Markdown document
#
# Every command runs through bash in a working directory where `tscaudit` (on PATH) is the
# binary under test and `tests` is the source tree's tests folder, so that data is named as
# a reader names it (tests/data/runs/empty.csv) and messages quote it that way.
#
# A transcript (FILE.t) is read line by line:
#   # text            a comment
#   %require ...      the whole file is skipped (exit 4, "SKIPPED: reason") unless:
#                       %require arch x86_64     the machine is that architecture (uname -m)
#                       %require command NAME    NAME is on PATH (gnuplot, taskset, ...)
#                       %require cpus N          at least N CPUs are online (nproc)
#   %serial, %timeout S  read by tests/cli/CMakeLists.txt: the file runs alone; its time limit
#   ## name           a case: its name (grep for it), then its steps
#   $ command         a step: a bash command line; a line ending in "\" continues on the next
#   > text            a line the step must print on standard output (">" alone: an empty line)
#   2> text           a line it must print on standard error
#   [N]               its exit code; without one it must exit 0
# Both streams are compared whole: a step that shows no "> " line must print nothing there.
# In an expected line, "..." alone stands for any number of lines (up to the first line that
# matches the line after it), and these placeholders stand for what varies from run to run or
# machine to machine:
#   {N}     a number: -12, 3.5, 1e+06         {CPU}   a CPU number
#   {CPUS}  a CPU list: 0-15, 0,2,4-7         {PATH}  a word without blanks (a path, a name)
#   {TEXT}  any text within the line, none included
# The step's working directory is SCRATCH (made empty first, left for inspection; every step
# of the file shares it); $TSCAUDIT is the binary, $SCRATCH and $SOURCE the two directories.
# Standard input is /dev/null; a step still running after 600 s is stopped (exit 124).
# Their absolute paths in the output read as "$TSCAUDIT", "$SCRATCH" and "$SOURCE".
# A failure names FILE:LINE, the case, the command, the expected and the actual line, then
# prints both streams. TSCAUDIT_TRANSCRIPT_UPDATE=1 (a maintainer's tool; the tests unset it)
# writes each failing step's actual output into FILE.t in place of its expected lines and
# still fails: review the change, put placeholders back where the output varies.
#
# A document's example (--markdown) is a fenced code block whose first line starts with "$ ":
# each "$ " line (with the lines that continue it after a trailing "\" or "|") runs in a fresh
# directory per block; the lines after it, up to the next "$ " line, are its standard output,
# "..." as above, blank lines at the end not counted. No placeholders, no standard error, and
# exit codes are not compared: an example that finds a problem exits 1 on purpose.
set -u
shopt -s extglob
markdown=0
if [[ ${1-} == --markdown ]]; then
  markdown=1
  shift
  (($# == 3)) || { echo "usage: $0 --markdown TSCAUDIT SOURCE_DIR DOC.md" >&2; exit 2; }
  bin=$1 src=$2 file=$3
else
  (($# == 4)) || { echo "usage: $0 TSCAUDIT SOURCE_DIR SCRATCH FILE.t" >&2; exit 2; }
  bin=$1 src=$2 scratch=$3 file=$4
fi
src=$(cd "$src" && pwd -P) || exit 2
[[ $bin == /* ]] || bin=$PWD/$bin
[[ -x $bin ]] || { echo "$bin: not an executable"; exit 2; }
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$bin" "$work/bin/tscaudit"
export PATH="$work/bin:$PATH" TSCAUDIT=$bin SOURCE=$src

# --- comparing --------------------------------------------------------------------------

# placeholder_regex TEXT: sets REPLY to an anchored ERE that matches TEXT with its
# placeholders; every other character stands for itself.
placeholder_regex() {
  local s=$1 out="" c
  while [[ -n $s ]]; do
    if [[ $s =~ ^\{(N|CPU|CPUS|PATH|TEXT)\} ]]; then
      case ${BASH_REMATCH[1]} in
        N) out+='[-+]?[0-9]+([.][0-9]+)?(e[-+]?[0-9]+)?' ;;
        CPU) out+='[0-9]+' ;;
        CPUS) out+='[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*' ;;
        PATH) out+='[^[:space:]]+' ;;
        TEXT) out+='.*' ;;
      esac
      s=${s:${#BASH_REMATCH[0]}}
      continue
    fi
    c=${s:0:1} s=${s:1}
    case $c in
      [[:alnum:]\ ]) out+=$c ;;
      '\') out+='\\' ;;
      '^') out+='\^' ;;
      *) out+="[$c]" ;;
    esac
  done
  REPLY="^$out\$"
}

# line_matches EXPECTED ACTUAL
line_matches() {
  [[ $1 == "$2" ]] && return 0
  ((markdown)) && return 1
  [[ $1 == *'{'@(N|CPU|CPUS|PATH|TEXT)'}'* ]] || return 1
  placeholder_regex "$1"
  [[ $2 =~ $REPLY ]]
}

# compare WANT_ARRAY GOT_ARRAY: 0 when they match. Otherwise sets why (what differs) and
# at (the index in WANT of the expected line that failed; its length where output goes on).
compare() {
  local -n want_=$1 got_=$2
  local i=0 j=0 w
  why="" at=0
  while ((i < ${#want_[@]})); do
    w=${want_[i]}
    if [[ "${w//[[:space:]]/}" == "..." ]]; then
      ((i++))
      # "..." at the end matches the rest; otherwise skip to the next line that matches.
      ((i == ${#want_[@]})) && return 0
      while ((j < ${#got_[@]})) && ! line_matches "${want_[i]}" "${got_[j]}"; do ((j++)); done
      if ((j == ${#got_[@]})); then
        at=$i why="expected line $((i + 1)) not found after '...':"$'\n'"  expected: ${want_[i]}"
        return 1
      fi
      continue
    fi
    if ((j >= ${#got_[@]})); then
      at=$i why="output ends before expected line $((i + 1)):"$'\n'"  expected: $w"
      return 1
    fi
    if ! line_matches "$w" "${got_[j]}"; then
      at=$i why="line $((j + 1)) differs:"$'\n'"  expected: $w"$'\n'"  actual:   ${got_[j]}"
      return 1
    fi
    ((i++, j++))
  done
  if ((j < ${#got_[@]})); then
    at=$i why="output goes on after the expected lines:"$'\n'"  actual:   ${got_[j]}"
    return 1
  fi
  return 0
}

# read_output FILE ARRAY: the lines of FILE, absolute paths named as the transcript names them.
read_output() {
  local -n lines_=$2
  local text
  text=$(cat "$1"; echo .)  # keep trailing line ends
  text=${text%.}
  if ((!markdown)); then
    text=${text//"$scratch"/'$SCRATCH'}
    text=${text//"$bin"/'$TSCAUDIT'}
    text=${text//"$src"/'$SOURCE'}
  fi
  mapfile -t lines_ <<<"${text%$'\n'}"
  [[ -z $text ]] && lines_=()
  return 0
}

# run_command DIR COMMAND: runs it; its streams in $work/out and $work/err, rc its exit code.
run_command() {
  (cd "$1" && exec timeout -k 5 600 bash -c "$2") </dev/null >"$work/out" 2>"$work/err"
  rc=$?
}

show_streams() {
  printf -- '--- its standard output:\n'
  head -n 60 "$work/out"
  printf -- '--- its standard error:\n'
  head -n 30 "$work/err"
}

# --- a document's examples ---------------------------------------------------------------

if ((markdown)); then
  failures=0 examples=0
  # run_block FIRST_LINE: the block's lines are in the array block.
  run_block() {
    local first=$1 dir cmd k=0 step_line
    local -a want got
    dir=$(mktemp -d "$work/example.XXXXXX")
    ln -s "$src/tests" "$dir/tests"
    while ((k < ${#block[@]})); do
      if [[ ${block[k]} != '$ '* ]]; then ((k++)); continue; fi
      cmd=${block[k]#'$ '} step_line=$((first + k))
      while [[ $cmd == *'\' || $cmd == *'|' ]] && ((k + 1 < ${#block[@]})); do
        ((k++))
        if [[ $cmd == *'\' ]]; then cmd="${cmd%'\'} ${block[k]}"; else cmd="$cmd ${block[k]}"; fi
      done
      want=()
      ((k++))
      while ((k < ${#block[@]})) && [[ ${block[k]} != '$ '* ]]; do want+=("${block[k]}"); ((k++)); done
      # Blank lines at the end cannot be seen in a document: neither side's count.
      while ((${#want[@]})) && [[ -z "${want[-1]//[[:space:]]/}" ]]; do unset 'want[-1]'; done
      ((examples++))
      run_command "$dir" "$cmd"
      read_output "$work/out" got
      while ((${#got[@]})) && [[ -z "${got[-1]//[[:space:]]/}" ]]; do unset 'got[-1]'; done
      if ! compare want got; then
        ((failures++))
        printf 'FAIL %s:%d: $ %s\n%s\n' "$file" "$step_line" "$cmd" "$why"
        show_streams
        echo
      fi
    done
  }
  in_block=0 first=0 nr=0
  block=()
  while IFS= read -r line || [[ -n $line ]]; do
    ((nr++))
    if [[ $line == '```'* ]]; then
      if ((in_block)); then
        in_block=0
        [[ ${block[0]-} == '$ '* ]] && run_block "$first"
      else
        in_block=1 first=$((nr + 1)) block=()
      fi
      continue
    fi
    ((in_block)) && block+=("$line")
  done <"$file"
  if ((examples == 0)); then
    echo "no example found in $file"
    exit 1
  fi
  echo "$examples examples of $file run, $failures failed"
  ((failures == 0))
  exit
fi

# --- a transcript ------------------------------------------------------------------------

mapfile -t lines <"$file" || exit 2
# Failures name the file as a reader finds it: from the source tree's root.
[[ $file == /* ]] || file=$PWD/$file
file=${file#"$src"/}
for line in "${lines[@]}"; do
  [[ $line == '%require '* ]] || continue
  read -r _ what arg rest <<<"$line"
  case $what in
    arch) [[ $(uname -m) == "$arg" ]] || { echo "SKIPPED: this machine is $(uname -m), not $arg"; exit 4; } ;;
    command) command -v "$arg" >/dev/null || { echo "SKIPPED: $arg is not installed"; exit 4; } ;;
    cpus) (($(nproc) >= arg)) || { echo "SKIPPED: $(nproc) CPUs online, fewer than $arg"; exit 4; } ;;
    *) echo "$file: unknown requirement: $line"; exit 2 ;;
  esac
done

rm -rf "$scratch" && mkdir -p "$scratch" || exit 2
scratch=$(cd "$scratch" && pwd -P) || exit 2
ln -s "$src/tests" "$scratch/tests"
export SCRATCH=$scratch

cases=0 steps=0 failures=0 case_name="" case_failed=0
update=${TSCAUDIT_TRANSCRIPT_UPDATE:-0}
declare -A replace_at=() replace_end=()  # update mode: line index -> new text, last index

# end_case: reports the case that ends here (TAP-like: one line per case).
end_case() {
  [[ -n $case_name ]] || return 0
  ((cases++))
  if ((case_failed)); then echo "not ok $cases - $case_name"; else echo "ok $cases - $case_name"; fi
  case_name="" case_failed=0
}

# run_step K: the step whose "$ " line is lines[K]; sets k to the line after it.
run_step() {
  local first=$1 cmd exp_first exp_last want_rc=0 rc_line=-1 t
  local -a want_out=() want_err=() out_nr=() err_nr=() got_out=() got_err=()
  cmd=${lines[first]#'$ '}
  k=$((first + 1))
  while [[ $cmd == *'\' ]] && ((k < ${#lines[@]})); do cmd+=$'\n'"${lines[k]}"; ((k++)); done
  exp_first=$k exp_last=$((k - 1))
  while ((k < ${#lines[@]})); do
    t=${lines[k]}
    case $t in
      '>') want_out+=(""); out_nr+=("$k") ;;
      '> '*) want_out+=("${t#'> '}"); out_nr+=("$k") ;;
      '2>') want_err+=(""); err_nr+=("$k") ;;
      '2> '*) want_err+=("${t#'2> '}"); err_nr+=("$k") ;;
      \[+([0-9])\]) want_rc=${t:1:-1} rc_line=$k ;;
      *) break ;;
    esac
    exp_last=$k
    ((k++))
  done
  ((steps++))
  run_command "$scratch" "$cmd"
  read_output "$work/out" got_out
  read_output "$work/err" got_err
  local problem="" where=$first
  if ((rc != want_rc)); then
    problem="exit code $rc, expected $want_rc"
    ((rc_line >= 0)) && where=$rc_line
  elif ! compare want_out got_out; then
    problem="standard output: $why"
    ((at < ${#out_nr[@]})) && where=${out_nr[at]}
  elif ! compare want_err got_err; then
    problem="standard error: $why"
    ((at < ${#err_nr[@]})) && where=${err_nr[at]}
  fi
  [[ -z $problem ]] && return 0
  ((failures++))
  case_failed=1
  printf 'FAIL %s:%d: %s\n$ %s\n%s\n' "$file" "$((where + 1))" "$case_name" "$cmd" "$problem"
  show_streams
  echo
  if [[ $update == 1 ]]; then
    local new="" l
    for l in "${got_out[@]}"; do if [[ -z $l ]]; then new+=">"$'\n'; else new+="> $l"$'\n'; fi; done
    for l in "${got_err[@]}"; do if [[ -z $l ]]; then new+="2>"$'\n'; else new+="2> $l"$'\n'; fi; done
    ((rc != 0)) && new+="[$rc]"$'\n'
    replace_at[$exp_first]=$new replace_end[$exp_first]=$exp_last
  fi
}

k=0
while ((k < ${#lines[@]})); do
  line=${lines[k]}
  case $line in
    '## '*) end_case; case_name=${line#'## '}; ((k++)) ;;
    '$ '*)
      [[ -n $case_name ]] || { echo "$file:$((k + 1)): a step before the first '## ' case"; exit 2; }
      run_step "$k" ;;
    ''|'#'*|'%'*) ((k++)) ;;
    *) echo "$file:$((k + 1)): not a line of a transcript: $line"; exit 2 ;;
  esac
done
end_case

if [[ $update == 1 ]] && ((${#replace_at[@]})); then
  {
    k=0
    while ((k < ${#lines[@]})); do
      if [[ -n ${replace_at[$k]+set} ]]; then
        printf '%s' "${replace_at[$k]}"
        # Where the step expected nothing, this line is not one of its expected lines.
        if ((replace_end[$k] >= k)); then k=$((replace_end[$k] + 1)); continue; fi
      fi
      printf '%s\n' "${lines[k]}"
      ((k++))
    done
    # A last step that expected nothing.
    if [[ -n ${replace_at[$k]+set} ]]; then printf '%s' "${replace_at[$k]}"; fi
  } >"$work/updated" && cp "$work/updated" "$src/$file"
  echo "updated ${#replace_at[@]} steps of $file: review the change (git diff)"
fi
echo "$cases cases, $steps steps of $file run, $failures failed"
((failures == 0))
