#!/bin/sh
# The format check: every C++ file of the project (app/ core/ gpu/ ui/ tests/ resources/) must be
# as clang-format 14 formats it with the repository's .clang-format.
# Usage: sh .ci/format_check.sh [--fix]   (--fix reformats them in place)
set -eu
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format)
failed=0
checked=0
for file in $(find app core gpu ui tests resources \( -name '*.cpp' -o -name '*.h' \) -type f | sort); do
  checked=$((checked + 1))
  if [ "${1:-}" = "--fix" ]; then
    "$format" -i "$file"
  elif ! "$format" --dry-run -Werror "$file" 2>/dev/null; then
    echo "format check: $file differs from clang-format:" >&2
    "$format" "$file" | diff -u "$file" - >&2 || true
    failed=1
  fi
done
echo "format check: $checked files"
exit $failed
