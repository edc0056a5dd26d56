#!/bin/bash
# Runs the examples of a Markdown document and compares their output with the document.
#   doc_examples.sh TSCAUDIT SOURCE_DIR DOC.md
# An example is a fenced code block whose first line starts with "$ ": each "$ " line (with
# the lines that continue it after a trailing "\" or "|") is run by bash in a fresh directory
# per block, where `tscaudit` is the binary under test and `tests` is the source tree's tests
# folder; the lines after it, up to the next "$ " line, are its expected standard output. A
# line that is "..." alone (indentation aside) stands for any number of lines. Exit codes are
# not compared: an example that finds a problem exits 1 on purpose.
set -u
bin=$1 src=$2 doc=$3
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$bin" >"$work/bin/tscaudit"
chmod +x "$work/bin/tscaudit"

failures=0 examples=0
# compare EXPECTED_FILE ACTUAL_FILE: 0 when they match with "..." as a wildcard.
compare() {
  local -a want got
  mapfile -t want <"$1"
  mapfile -t got <"$2"
  # Blank lines at the end cannot be seen in a document: neither side's count.
  while ((${#want[@]})) && [[ -z "${want[-1]//[[:space:]]/}" ]]; do unset 'want[-1]'; done
  while ((${#got[@]})) && [[ -z "${got[-1]//[[:space:]]/}" ]]; do unset 'got[-1]'; done
  local i=0 j=0
  while ((i < ${#want[@]})); do
    local w=${want[i]}
    if [[ "${w//[[:space:]]/}" == "..." ]]; then
      ((i++))
      # "..." at the end matches the rest; otherwise skip to the next line that matches.
      ((i == ${#want[@]})) && return 0
      while ((j < ${#got[@]})) && [[ "${got[j]}" != "${want[i]}" ]]; do ((j++)); done
      ((j < ${#got[@]})) || { echo "expected line $((i + 1)) not found after '...': ${want[i]}"; return 1; }
      continue
    fi
    if ((j >= ${#got[@]})); then
      echo "output ends before expected line $((i + 1)): $w"
      return 1
    fi
    if [[ "${got[j]}" != "$w" ]]; then
      printf 'line %d differs:\n  expected: %s\n  actual:   %s\n' "$((j + 1))" "$w" "${got[j]}"
      return 1
    fi
    ((i++, j++))
  done
  ((j == ${#got[@]})) || { echo "output goes on after the expected lines: ${got[j]}"; return 1; }
  return 0
}

# run_block FIRST_LINE: the block's lines are in $work/block.
run_block() {
  local first=$1 dir
  dir=$(mktemp -d "$work/example.XXXXXX")
  ln -s "$src/tests" "$dir/tests"
  local cmd="" expect="$work/expect" line step_line=0 n=0
  local -a lines
  mapfile -t lines <"$work/block"
  local k=0
  while ((k < ${#lines[@]})); do
    line=${lines[k]}
    if [[ $line == '$ '* ]]; then
      cmd=${line#'$ '}
      step_line=$((first + k))
      while [[ $cmd == *'\' || $cmd == *'|' ]] && ((k + 1 < ${#lines[@]})); do
        ((k++))
        if [[ $cmd == *'\' ]]; then cmd="${cmd%'\'} ${lines[k]}"; else cmd="$cmd ${lines[k]}"; fi
      done
      : >"$expect"
      ((k++))
      while ((k < ${#lines[@]})) && [[ ${lines[k]} != '$ '* ]]; do
        printf '%s\n' "${lines[k]}" >>"$expect"
        ((k++))
      done
      ((n++, examples++))
      (cd "$dir" && PATH="$work/bin:$PATH" bash -c "$cmd" >"$work/out" 2>"$work/err")
      if ! result=$(compare "$expect" "$work/out"); then
        ((failures++))
        printf 'FAIL %s:%d: $ %s\n%s\n--- its standard output:\n%s\n--- its standard error:\n%s\n\n' \
          "$doc" "$step_line" "$cmd" "$result" "$(cat "$work/out")" "$(head -20 "$work/err")"
      fi
      continue
    fi
    ((k++))
  done
}

in_block=0 first=0 nr=0
: >"$work/block"
while IFS= read -r line || [[ -n $line ]]; do
  ((nr++))
  if [[ $line == '```'* ]]; then
    if ((in_block)); then
      in_block=0
      if [[ $(head -c 2 "$work/block") == '$ ' ]]; then run_block "$first"; fi
    else
      in_block=1 first=$((nr + 1))
      : >"$work/block"
    fi
    continue
  fi
  ((in_block)) && printf '%s\n' "$line" >>"$work/block"
done <"$doc"

if ((examples == 0)); then
  echo "no example found in $doc"
  exit 1
fi
echo "$examples examples of $doc run, $failures failed"
((failures == 0))
