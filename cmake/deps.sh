#!/bin/sh
# Installs the Debian 12 packages Attention Explorer needs, only those missing. Runs as root,
# or through sudo otherwise. Everything comes from Debian; nothing is downloaded at build time.
# Fonts: DejaVu for Latin, Greek and Cyrillic; fonts-noto-ui-core (1.4 MB download, 5 MB
# installed) for Devanagari, Kannada, Malayalam, Gujarati and Tamil; fonts-noto-cjk (57 MB,
# 91 MB installed) for Korean, Japanese and Chinese: every script of seed 001's sentence
# renders in the window, in figures and in presentations (tests/ui/tst_figure_fonts).
# dpkg-dev and file let cpack derive the .deb's Depends (dpkg-shlibdeps); appstream and
# desktop-file-utils validate the desktop files, gio (libglib2.0-bin) opens a scene as a file
# manager would (tests/package). qt6-l10n-tools (lupdate, lrelease) and qt6-tools-dev (CMake's
# Qt6LinguistTools) compile resources/translations into the program. qemu-user (99 MB installed)
# runs the packaged program on a baseline x86-64 CPU (tests/package/check_deb.sh).
# libsentencepiece-dev (0.8 MB download) reads SentencePiece model files (T5's spiece.model,
# Marian's source.spm).
# Usage: sh cmake/deps.sh [EXTRA_PACKAGE...]   (CI's extra checks name theirs: .ci/run)
set -eu

packages="cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-svg-dev libqt6svg6 libgl-dev qt6-l10n-tools qt6-tools-dev
  libeigen3-dev libqcustomplot-dev libqcustomplot2.1-qt6 libsentencepiece-dev
  libvulkan-dev glslc vulkan-validationlayers mesa-vulkan-drivers
  fonts-dejavu-core fonts-droid-fallback poppler-utils
  fonts-noto-ui-core fonts-noto-cjk
  dpkg-dev file appstream desktop-file-utils libglib2.0-bin qemu-user"

packages="$packages $*"
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
