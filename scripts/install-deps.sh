#!/usr/bin/env bash
# Installs what building and testing tileops needs, from Debian's packages (idempotent).
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libyaml-cpp-dev libfmt-dev nlohmann-json3-dev
          libgtest-dev libgmock-dev libbenchmark-dev libssl-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
