#!/bin/sh
# The format check: every file listed in .ci/clang-format-files.txt must be as clang-format 14
# formats it with the repository's .clang-format. The list holds the C++ files that already
# were (and every file written since under it): most of the tree predates .clang-format being
# applied, and reformatting it while five people edit it would only make conflicts. Add a file
# to the list once it is formatted (clang-format-14 -i FILE); never take one off.
# Usage: sh .ci/format_check.sh [--fix]   (--fix reformats the listed files in place)
set -eu
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format)
failed=0
checked=0
while IFS= read -r file; do
  case "$file" in '' | '#'*) continue ;; esac
  if [ ! -f "$file" ]; then
    echo "format check: $file is listed but missing (renamed? update .ci/clang-format-files.txt)" >&2
    failed=1
    continue
  fi
  checked=$((checked + 1))
  if [ "${1:-}" = "--fix" ]; then
    "$format" -i "$file"
  elif ! "$format" --dry-run -Werror "$file" 2>/dev/null; then
    echo "format check: $file differs from clang-format:" >&2
    "$format" "$file" | diff -u "$file" - >&2 || true
    failed=1
  fi
done < .ci/clang-format-files.txt
echo "format check: $checked files"
exit $failed
