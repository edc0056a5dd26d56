# Sourced by the shell tests of tests/cli. Notes, warnings and problems on standard error wrap
# at 100 columns wherever a space falls (docs/commands.md, "Conventions"), so where a break
# falls depends on the lengths of paths, process ids and measured numbers: a note is read with
# its lines joined. Errors stay on one line; a pattern anchored to an error line (^, $) is
# grepped as is.
#   said PATTERN FILE: whether FILE says PATTERN (a grep pattern, spaces single).
said() { tr -s ' \n' '  ' <"$2" | grep -q -- "$1"; }
