#!/bin/sh
# check_desktop_files.sh DIR APP_ID MIME_TYPE: the menu entry, the AppStream metadata and the
# MIME type that resources/ configures into DIR pass their own validators
# (desktop-file-validate, appstreamcli validate, update-mime-database), and agree with each
# other: the entry opens the scene type, whose glob is *.attention.json and whose parent is
# JSON. A validator that is not installed is skipped (exit 77), except with CI=true, where
# cmake/deps.sh has installed them all.
set -u
dir=$1
id=$2
mime=$3
desktop=$dir/$id.desktop
metainfo=$dir/$id.metainfo.xml
package=$dir/attention-explorer.xml
failures=0
skipped=""
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
need() {
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "${CI:-}" = true ]; then fail "$1 is not installed (cmake/deps.sh installs $2)"; else skipped="$skipped $1"; fi
    return 1
}

if need desktop-file-validate desktop-file-utils; then
    # Errors and warnings fail. The one hint, "more than one main category", is what the
    # entry asks for: listed under Education and under Science.
    out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
    out=$(printf '%s\n' "$out" | grep -v ' hint: .*contains more than one main category')
    [ -z "$out" ] || fail "desktop-file-validate: $out"
fi
if need appstreamcli appstream; then
    # Warnings fail too; only pedantic hints pass.
    out=$(appstreamcli validate --no-net --strict "$metainfo" 2>&1) || fail "appstreamcli validate: $out"
fi
if need update-mime-database shared-mime-info; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/mime/packages"
    cp "$package" "$tmp/mime/packages/"
    out=$(XDG_DATA_HOME="$tmp" XDG_DATA_DIRS="$tmp" update-mime-database "$tmp/mime" 2>&1) || fail "update-mime-database: $out"
    [ -z "$out" ] || fail "update-mime-database: $out"
    grep -qx "50:$mime:\*\.attention\.json" "$tmp/mime/globs2" || fail "no *.attention.json glob for $mime in globs2"
    grep -qx "$mime application/json" "$tmp/mime/subclasses" || fail "$mime is not a kind of application/json"
fi

# The three agree.
grep -qx "MimeType=$mime;" "$desktop" || fail "$desktop does not open $mime"
grep -q "<mediatype>$mime</mediatype>" "$metainfo" || fail "$metainfo does not name $mime"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" || fail "$metainfo does not launch $id.desktop"
grep -qx "Icon=attention-explorer" "$desktop" || fail "$desktop: Icon is not attention-explorer"
grep -q "Categories=Education;Science;" "$desktop" || fail "$desktop: not in Education and Science"

[ "$failures" -eq 0 ] || exit 1
if [ -n "$skipped" ]; then
    echo "not installed, skipped:$skipped"
    exit 77
fi
echo "desktop entry, AppStream metadata and MIME type valid and consistent"
