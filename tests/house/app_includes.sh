#!/usr/bin/env bash
# The app's files include one another in one direction only (docs/development.md, "Layout"):
# no file of src/app includes a header of another module whose own files include the first
# module's header back (X.cpp or X.hpp includes Y.hpp, and Y.cpp or Y.hpp includes X.hpp).
#   app_includes.sh SRC_APP_DIR
# Exit 0 when there is no such pair; 1 naming every pair.
set -u
dir=$1
cd "$dir" || exit 1
# "module included" per file: the module of a file is its name without .cpp or .hpp.
declare -A includes
for f in *.cpp *.hpp; do
  m=${f%.*}
  for inc in $(grep -o '^#include "app/[a-z0-9_]*\.hpp"' "$f" | sed 's|#include "app/||; s|\.hpp"||'); do
    [ "$inc" = "$m" ] && continue
    includes["$m"]+=" $inc "
  done
done
found=0
for m in "${!includes[@]}"; do
  for other in ${includes[$m]}; do
    if [[ "${includes[$other]-}" == *" $m "* ]] && [[ "$m" < "$other" ]]; then
      echo "FAIL: app/$m and app/$other include each other's headers"
      found=1
    fi
  done
done
[ "$found" -eq 0 ] && echo "ok: no two modules of src/app include each other"
exit "$found"
