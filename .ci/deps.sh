#!/bin/sh
# What CI needs beyond cmake/deps.sh (the build and the test suite): clang with libFuzzer and
# its sanitizer runtimes and OpenMP runtime (the fuzz preset), clang-format (the format check).
# Debian 12 packages only, installed only when missing; as root or through sudo.
set -eu

packages="clang-14 libclang-rt-14-dev libomp-14-dev clang-format-14"

missing=""
for package in $packages; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing="$missing $package"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  run=""
elif command -v sudo >/dev/null 2>&1; then
  run="sudo"
else
  echo ".ci/deps.sh: these packages are missing:$missing; run as root or install sudo" >&2
  exit 1
fi
echo "Installing:$missing"
$run env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086 # the list is meant to split
$run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
