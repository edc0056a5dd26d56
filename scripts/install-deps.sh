#!/usr/bin/env bash
# Installs the Debian 12 packages tscsync needs, only those that are missing.
# Idempotent: when everything is present it touches nothing and needs no network.
set -euo pipefail

packages=(
  cmake ninja-build g++ make binutils   # build; binutils gives objdump for the asm-shape test
  libboost-dev        # Boost.Lockfree spsc_queue
  libeigen3-dev       # least squares in the analysis
  catch2              # tests (2.13)
  gnuplot-nox         # plots (pngcairo, svg)
  libhwloc-dev        # topology
  pkgconf             # pkg-config, through which CMake finds hwloc
  libcli11-dev        # command line
  nlohmann-json3-dev  # JSON in and out
)

missing=()
for p in "${packages[@]}"; do
  [[ $p == \#* ]] && continue
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
  sudo=sudo
else
  sudo=
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
