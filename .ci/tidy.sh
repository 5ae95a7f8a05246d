#!/bin/sh
# clang-tidy 14 with the checks in .clang-tidy over every translation unit of ours (app, core,
# gpu, ui, tests) in a configured and built tree's compile_commands.json (default build/ci: the
# tests include moc files the build generates). Any finding is an error and fails the run.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build/ci}
run-clang-tidy-14 -p "$build" -quiet -j "$(nproc)" "$PWD/(app|core|gpu|ui|tests)/" >"$build/tidy.log" 2>&1 || {
  grep -E "(warning|error):" "$build/tidy.log" | grep -v '^/usr/' | sort -u
  echo "clang-tidy: findings above (whole output in $build/tidy.log)"
  exit 1
}
echo "clang-tidy: $(grep -c '^clang-tidy' "$build/tidy.log") files, no finding"
