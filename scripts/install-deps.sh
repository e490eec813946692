#!/usr/bin/env bash
# Installs the Debian packages cohort's host build, tests and tools need, or
# the packages named as arguments; a name with an architecture (pkg:arm64)
# adds that architecture to dpkg first. Skips apt entirely when everything is
# there already.
set -euo pipefail
packages=(cmake ninja-build g++ python3 libboost-context-dev libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev
          nlohmann-json3-dev libtbb-dev gdb)
(($#)) && packages=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  for p in "${missing[@]}"; do
    [[ $p == *:* ]] || continue
    dpkg --print-foreign-architectures | grep -qx "${p#*:}" || $sudo dpkg --add-architecture "${p#*:}"
  done
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
