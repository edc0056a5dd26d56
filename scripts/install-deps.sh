#!/usr/bin/env bash
# Installs the Debian 12 packages of the named sets that are missing, and nothing else.
# Idempotent: when everything is present it touches nothing and needs no network.
#   scripts/install-deps.sh            the build set: what `make report` and `make test` need
#   scripts/install-deps.sh fuzz       what `make fuzz` needs on top (clang and its runtimes)
#   scripts/install-deps.sh tidy       clang-tidy and clang-format (`make tidy`, `make format`)
#   scripts/install-deps.sh fleet      Prometheus's tools, for the metrics' tests (`make test`)
#   scripts/install-deps.sh package    what `make package` and the package's tests need
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
  libzstd-dev"
# build: binutils gives objdump (the asm-shape test), libboost-dev Boost.Lockfree,
# libeigen3-dev the least squares, catch2 (2.13) the tests, gnuplot-nox the pictures (pngcairo,
# svg), libhwloc-dev the topology, pkgconf the way CMake finds hwloc, libcli11-dev the command
# line, nlohmann-json3-dev JSON in and out, libzstd-dev the rounds of a run directory.
sets[fuzz]="clang libclang-rt-14-dev llvm"
# fuzz: Debian 12's clang (14), its compiler-rt (libFuzzer, ASan and UBSan runtimes) and llvm
# (llvm-symbolizer, for symbolized stack traces in the reports).
sets[tidy]="clang-tidy clang-format"
sets[fleet]="prometheus prometheus-node-exporter python3-prometheus-client curl"
# fleet: promtool (in Debian's prometheus package) checks every exposition and tests the
# alert rules; node_exporter reads the metrics from a textfile directory in the end-to-end
# test, which curl scrapes; python3-prometheus-client's parser holds the output to OpenMetrics
# 1.0. On a machine that runs systemd, Debian starts the prometheus and node_exporter
# services when it installs them (docs/testing.md, "What skips").
sets[package]="dpkg-dev lintian"
# package: dpkg-shlibdeps (the .deb's Depends) and lintian (its checks).

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
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
