#!/usr/bin/env bash
# Installs what `make fuzz` needs on top of scripts/install-deps.sh: Debian 12's clang
# (14), its compiler-rt (libFuzzer, ASan and UBSan runtimes) and llvm (llvm-symbolizer,
# for symbolized stack traces in the reports). Only what is missing; idempotent.
set -euo pipefail

packages=(clang libclang-rt-14-dev llvm)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
((${#missing[@]} == 0)) && exit 0

echo "install-fuzz-deps: installing ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
  sudo=sudo
else
  sudo=
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
