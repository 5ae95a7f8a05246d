#!/bin/sh
# Installs the Debian 12 packages Attention Explorer needs, only those missing. Runs as root,
# or through sudo otherwise. Everything comes from Debian; nothing is downloaded at build time.
set -eu

packages="cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-svg-dev libqt6svg6 libgl-dev
  libeigen3-dev libqcustomplot-dev libqcustomplot2.1-qt6
  libvulkan-dev glslc vulkan-validationlayers mesa-vulkan-drivers
  fonts-dejavu-core fonts-droid-fallback poppler-utils"

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
  echo "cmake/deps.sh: these packages are missing:$missing; run as root or install sudo" >&2
  exit 1
fi
echo "Installing:$missing"
$run env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086 # the list is meant to split
$run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
