#!/bin/sh
# Mutation check of the core suite: applies small mutations to core, one at a time,
# to a copy of the committed tree, and expects `ctest -L core` to fail on each. A mutant that
# passes is a wrong number the core tests would not notice. Not part of .ci/run (about a
# minute per mutant on 2 cores); run it before changing what the core tests check.
# Usage: sh .ci/mutation_check.sh [BUILD_DIR]   (default build/mutation; the copy lives there)
#        MUTATION_SOURCE=DIR sh .ci/mutation_check.sh   (mutate a copy of DIR instead of HEAD)
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
work=${1:-build/mutation}
case "$work" in /*) ;; *) work="$root/$work" ;; esac
src="$work/src"
bin="$work/build"

# The committed tree, so that edits in progress neither break nor hide anything.
rm -rf "$src"
mkdir -p "$src" "$bin"
if [ -n "${MUTATION_SOURCE:-}" ]; then
  (cd "$MUTATION_SOURCE" && tar -c --exclude=./build .) | tar -x -C "$src"
else
  git archive HEAD | tar -x -C "$src"
fi
ln -sfn "$root/../shared" "$work/shared" 2>/dev/null || true
cmake -S "$src" -B "$bin" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTN_BUILD_TESTS=ON >"$work/configure.log"
targets=$(cd "$src/tests/core" && ls ./*/tst_*.cpp | sed "s|.*/||; s/\.cpp$//")

run_suite() {
  # shellcheck disable=SC2086 # one target per word
  ninja -C "$bin" -j2 $targets >"$work/build.log" 2>&1 || return 2
  (cd "$bin" && ctest -L '^core$' -j2 --timeout 600 >"$work/test.log" 2>&1)
}

echo "mutation check: the unmutated suite first"
if ! run_suite; then
  echo "mutation check: the core suite fails without any mutation; see $work/test.log" >&2
  exit 1
fi

# file | text to find (exactly once) | its replacement | what the mutant does
mutants=$(cat <<'EOF'
core/problem.cpp|std::sqrt(double(weights->dK))|std::sqrt(double(weights->dV))|scales by 1/sqrt(d_v) instead of 1/sqrt(d_k)
core/attention_settings.cpp|: -9e15f;|: -9e14f;|masks with -9e14 instead of -9e15
core/mask.cpp|j >= last|j > last|leaves the first key past a row's range unmasked (masked-row fill off by one)
core/pooling.cpp|block.sum() / float(nr * nc)|block.sum() / float(rowBlock * colBlock)|divides an edge block's mean by a whole block
core/mask.cpp|last = std::min(last, query + 1);|last = std::min(last, query + 2);|lets causal attention see one key ahead
core/mask.cpp|first = std::max(first, query - m_spec.window);|first = std::max(first, query - m_spec.window - 1);|widens the window by one key behind
core/normalization.cpp|row *= 1.0f / row.sum();|row *= 1.0f / (row.sum() + 1e-3f);|softmax rows sum to slightly less than 1
core/normalization.cpp|if (1.0 + double(k + 1) * sorted[k] > cumulative)|if (1.0 + double(k) * sorted[k] > cumulative)|sparsemax support size off by one
core/cpu_backend.cpp|maskedRow(j) = fill;|maskedRow(j) = fill / 2;|writes half the fill into the masked scores
core/attention_result.cpp|if (heads[h].enabled)|if (true)|a head switched off still reaches W^O
core/attention_result.cpp|sum / double(enabled)|sum / double(result.heads.size())|the mean of heads divides by every head, the ones off too
EOF
)

printf '%s\n' "$mutants" | while IFS='|' read -r file find replace what; do
  find=$(printf '%s' "$find" | sed 's/\\|/|/g')
  replace=$(printf '%s' "$replace" | sed 's/\\|/|/g')
  original="$work/original"
  cp "$src/$file" "$original"
  count=$(grep -cF -- "$find" "$src/$file" || true)
  if [ "$count" != 1 ]; then
    echo "NOT APPLIED  $file: '$find' found $count times (the code moved: update this script)"
    continue
  fi
  FIND="$find" REPLACE="$replace" python3 -c '
import os, sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace(os.environ["FIND"], os.environ["REPLACE"], 1))
' "$src/$file"
  if run_suite; then
    echo "SURVIVED     $file: $what"
  else
    status=$?
    failing=$(grep -E '^\s+[0-9]+ - ' "$work/test.log" | sed 's/.* - //; s/ (.*//' | tr '\n' ' ')
    [ $status = 2 ] && failing="(does not compile)"
    echo "KILLED       $file: $what -- $failing"
  fi
  cp "$original" "$src/$file"
done | tee "$work/result.txt"
echo "mutation check: $(grep -c '^KILLED' "$work/result.txt") killed, $(grep -c '^SURVIVED' "$work/result.txt") survived, $(grep -c '^NOT APPLIED' "$work/result.txt") not applied"
! grep -q '^SURVIVED\|^NOT APPLIED' "$work/result.txt"
