#!/usr/bin/env bash
# Installs the Debian 12 packages of the named sets that are missing, and nothing else.
# Idempotent: when everything is present it touches nothing and needs no network.
#   scripts/install-deps.sh            the build set: what `make report` and `make test` need
#   scripts/install-deps.sh fuzz       what `make fuzz` needs on top (clang and its runtimes)
#   scripts/install-deps.sh tidy       clang-tidy and clang-format (`make tidy`, `make format`)
#   scripts/install-deps.sh fleet      Prometheus's tools, for the metrics' tests (`make test`)
#   scripts/install-deps.sh package    what `make package` and the package's tests need, the
#                                      library's (`make abi-baseline`) included
#   scripts/install-deps.sh arm64      what `make test-arm64` needs on top: the aarch64 cross
#                                      compiler, qemu-user, and hwloc and zstd for arm64
set -euo pipefail

declare -A sets
sets[build]="
  cmake ninja-build g++ make binutils
  libboost-dev
  libeigen3-dev
  catch2
  gnuplot-nox
  libhwloc-dev
  pkgconf
  libcli11-dev
  nlohmann-json3-dev
  libzstd-dev
  file
  python3 zstd time"
# build: binutils gives objdump (the asm-shape test) and readelf, libboost-dev Boost.Lockfree,
# libeigen3-dev the least squares, catch2 (2.13) the tests, gnuplot-nox the pictures (pngcairo,
# svg), libhwloc-dev the topology, pkgconf the way CMake finds hwloc, libcli11-dev the command
# line, nlohmann-json3-dev JSON in and out, libzstd-dev the rounds of a run directory, file what
# the static binary's test asks first (priority standard: a minimal system may lack it);
# python3 and zstd (the command) make the hostile run directories of tests/cli/hostile_dirs.sh
# (tests/house/hostile_dirs.py), time (/usr/bin/time) measures bench/bench_hostile_dirs.sh.
sets[fuzz]="clang libclang-rt-14-dev llvm"
# fuzz: Debian 12's clang (14), its compiler-rt (libFuzzer, ASan and UBSan runtimes) and llvm
# (llvm-symbolizer, for symbolized stack traces in the reports).
sets[tidy]="clang-tidy clang-format"
sets[fleet]="prometheus prometheus-node-exporter python3-prometheus-client curl systemd zsh fish"
# fleet: promtool (in Debian's prometheus package) checks every exposition and tests the
# alert rules; node_exporter reads the metrics from a textfile directory in the end-to-end
# test, which curl scrapes; python3-prometheus-client's parser holds the output to OpenMetrics
# 1.0; systemd's systemd-analyze scores the service's sandbox (offline: no running systemd
# needed; setpriv and unshare, which run the check in it, are util-linux's, always there). On
# a machine that runs systemd, Debian starts the prometheus and node_exporter services when it
# installs them (tests/README.md, "What skips"). zsh and fish run their completions of the
# tool (tests/fleet/installed_tool.sh), as bash runs its own.
sets[package]="dpkg-dev lintian abigail-tools python3"
# package: dpkg-shlibdeps (the .deb's Depends) and lintian (its checks); for the tests of what
# `make install` puts in the package besides the tool, libtscaudit (tests/lib): abigail-tools's
# abidw and abidiff (its ABI against src/quick/libtscaudit.abi) and python3 (a ctypes consumer).
sets[arm64]="g++-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user libhwloc-dev:arm64 libzstd-dev:arm64
  libstdc++6:arm64"
# arm64: Debian 12's cross compiler (gcc 12, with its own aarch64 C and C++ runtime to link
# against) and its binutils (aarch64-linux-gnu-objdump reads the object code of the aarch64
# variants); qemu-user's qemu-aarch64 runs the aarch64 binaries (no binfmt_misc registration:
# the build names it, as CMAKE_CROSSCOMPILING_EMULATOR); hwloc and zstd are compiled libraries
# with no cross package, so they come as Debian's multiarch :arm64 packages (dpkg must know the
# arm64 architecture first), which bring libc6:arm64; libstdc++6:arm64 completes the runtime
# the binaries run with (cmake/toolchain-aarch64.cmake says why not the cross one). The
# header-only libraries are the build set's.

names=("$@")
((${#names[@]} == 0)) && names=(build)
missing=()
for name in "${names[@]}"; do
  if [[ -z ${sets[$name]+set} ]]; then
    echo "install-deps: unknown package set '$name' (known: ${!sets[*]})" >&2
    exit 2
  fi
  for p in ${sets[$name]}; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
done
((${#missing[@]} == 0)) && exit 0

echo "install-deps: installing ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
  sudo=sudo
else
  sudo=
fi
export DEBIAN_FRONTEND=noninteractive
# A multiarch package (name:arm64) needs its architecture known to dpkg before the update.
for p in "${missing[@]}"; do
  arch=${p##*:}
  if [[ $arch != "$p" ]] && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
    echo "install-deps: adding the $arch architecture to dpkg (multiarch)" >&2
    $sudo dpkg --add-architecture "$arch"
  fi
done
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
