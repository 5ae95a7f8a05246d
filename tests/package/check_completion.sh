#!/bin/bash
# check_completion.sh COMPLETION EXE: the bash completion offers every option of `EXE --help`,
# and for each option that takes one of a fixed set of words, exactly the words --help names.
set -u
completion=$1
exe=$2
export QT_QPA_PLATFORM=offscreen
# shellcheck source=../../resources/completion/attention-explorer.bash
source "$completion" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# complete WORD...: what the completion offers for the last word of "EXE WORD...".
complete_words() {
    COMP_WORDS=("$exe" "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _attention_explorer "$exe" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
    printf '%s\n' "${COMPREPLY[@]}" | sort
}

help=$("$exe" --help) || { echo "FAIL: $exe --help"; exit 1; }

# Every option.
expected=$(printf '%s\n' "$help" | grep -oE -- '^  (-[a-z], )?--[a-z0-9][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+' | sort -u)
offered=$(complete_words --)
missing=$(comm -23 <(printf '%s\n' "$expected") <(printf '%s\n' "$offered"))
[ -z "$missing" ] || fail "options not offered: $missing"
[ "$(complete_words --exp)" = "$(printf '%s\n' "$expected" | grep -e '^--exp')" ] ||
    fail "--exp completes to: $(complete_words --exp | tr '\n' ' ')"

# The words of each option, as --help lists them ("dot|scaled|..."); wrapped help lines are
# joined first. --fill and --view name theirs in prose: each offered word must appear there.
joined=$(printf '%s\n' "$help" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  \{20,\}//g')
for option in mode normalize embedding positional backend colormap stage latex color-scale theme train fill view; do
    line=$(printf '%s\n' "$joined" | grep -E -- "^  --$option <")
    [ -n "$line" ] || { fail "--$option is not in --help"; continue; }
    offered=$(complete_words "--$option" "")
    [ -n "$offered" ] || { fail "--$option: nothing offered"; continue; }
    listed=$(printf '%s\n' "${line#*> }" | grep -oE '[A-Za-z0-9:-]+(\|[A-Za-z0-9:-]+)+' | head -1 | tr '|' '\n' | sed -e 's/:$//' -e 's/^://' | sort)
    if [ -n "$listed" ]; then
        [ "$offered" = "$listed" ] ||
            fail "--$option offers [$(echo $offered)], --help lists [$(echo $listed)]"
    else
        for word in $offered; do
            case $line in *"${word/:1/:N}"*) ;; *) fail "--$option offers $word, not in: $line" ;; esac
        done
    fi
done

# --option=value and prefixes.
[ "$(complete_words --backend=v)" = "vulkan" ] || fail "--backend=v completes to: $(complete_words --backend=v)"
[ "$(complete_words --fill -)" = "$(printf '%s\n' -9e15 -inf)" ] || fail "--fill - completes to: $(complete_words --fill -)"

# Files: scenes for the argument, figures for --export.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
touch "$dir/a.attention.json" "$dir/b.json" "$dir/c.png" "$dir/d.txt"
mkdir "$dir/sub"
[ "$(complete_words "$dir/")" = "$(printf '%s\n' "$dir/a.attention.json" "$dir/b.json" "$dir/sub")" ] ||
    fail "scene files: $(complete_words "$dir/" | tr '\n' ' ')"
[ "$(complete_words --export "$dir/")" = "$(printf '%s\n' "$dir/c.png" "$dir/sub")" ] ||
    fail "--export files: $(complete_words --export "$dir/" | tr '\n' ' ')"

[ "$failures" -eq 0 ] || exit 1
echo "completion: $(printf '%s\n' "$expected" | wc -l) options and their words agree with --help"
