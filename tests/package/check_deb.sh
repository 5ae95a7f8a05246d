#!/bin/sh
# check_deb.sh CPACK BUILD_DIR VERSION APP_ID [SANITIZERS]: makes the .deb from BUILD_DIR (already built: no
# second build), checks its fields and contents, unpacks it into a fresh root with dpkg -x and
# runs the program from there: every library resolves (to the system, never to the build
# tree), Depends names the package of every library the program links, and --version, --help
# and a headless figure work. Skipped (exit 77) where dpkg is missing, unless CI=true.
set -u
cpack=$1
build=$2
version=$3
id=$4
sanitized=${5:-}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for tool in dpkg dpkg-deb ldd readelf gzip; do
    if ! command -v $tool >/dev/null 2>&1; then
        [ "${CI:-}" = true ] && { echo "FAIL: $tool is not installed"; exit 1; }
        echo "$tool is not installed: not a Debian system, skipped"
        exit 77
    fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

# The package, from the build folder as it is.
if ! "$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    echo "FAIL: cpack -G DEB"
    exit 1
fi
deb=$(ls "$work"/out/attention-explorer_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { cat "$work/cpack.log"; echo "FAIL: cpack made no attention-explorer_*.deb"; exit 1; }
packed=$(date +%s)
echo "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, made in $((packed - started)) s"

# Its fields.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = attention-explorer ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), not $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture: $(field Architecture)"
[ "$(field Section)" = science ] || fail "Section: $(field Section)"
depends=$(field Depends)
echo "Depends: $depends"
echo "Recommends: $(field Recommends)"
case $depends in *hicolor-icon-theme*) ;; *) fail "Depends lacks hicolor-icon-theme" ;; esac

# Its contents: the program and what a desktop expects beside it, nothing else.
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|; s|/$||' | sort >"$work/contents"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./|/|' | sort >"$work/files"
for file in /usr/bin/attention-explorer \
    "/usr/share/applications/$id.desktop" \
    "/usr/share/metainfo/$id.metainfo.xml" \
    /usr/share/mime/packages/attention-explorer.xml \
    /usr/share/icons/hicolor/scalable/apps/attention-explorer.svg \
    /usr/share/icons/hicolor/16x16/apps/attention-explorer.png \
    /usr/share/icons/hicolor/48x48/apps/attention-explorer.png \
    /usr/share/icons/hicolor/256x256/apps/attention-explorer.png \
    /usr/share/man/man1/attention-explorer.1.gz \
    /usr/share/bash-completion/completions/attention-explorer \
    /usr/share/doc/attention-explorer/copyright; do
    grep -qx "$file" "$work/contents" || fail "not in the package: $file"
done
grep -v -e '^/usr$' -e '^/usr/' "$work/contents" | grep . && fail "files outside /usr"
grep 'attention-bench' "$work/contents" && fail "attention-bench is packaged"
# The MIME and icon caches belong to shared-mime-info and the icon theme (dpkg triggers).
grep -E '^/usr/share/mime/[^/]+$|icon-theme.cache|mimeinfo.cache' "$work/files" && fail "a cache file is packaged"
grep -E '\.(o|a|h|cmake)$' "$work/contents" && fail "build files are packaged"

# Unpacked into a fresh root.
root=$work/root
dpkg -x "$deb" "$root" || { echo "FAIL: dpkg -x"; exit 1; }
exe=$root/usr/bin/attention-explorer
[ -x "$exe" ] || { echo "FAIL: $exe is not executable"; exit 1; }

# Every library resolves, to the system.
ldd "$exe" >"$work/ldd" 2>&1 || fail "ldd: $(cat "$work/ldd")"
grep 'not found' "$work/ldd" && fail "libraries not found"
grep -e "$build" -e "$work" "$work/ldd" && fail "libraries from the build tree"
readelf -d "$exe" | grep -E 'RPATH|RUNPATH' && fail "the installed program keeps an RPATH"

# Depends names the package of every library the program links (NEEDED, not what those pull).
owner() {
    for path in "$1" "$(readlink -f "$1")"; do
        for candidate in "$path" "${path#/usr}" "/usr$path"; do
            package=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$package" ] &&
                { echo "$package"; return 0; }
        done
    done
    return 1
}
names=$(printf '%s\n' "$depends" | tr ',|' '\n\n' | sed 's/(.*)//; s/:.*//; s/ //g')
for library in $(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    # "libfoo.so.1 => /lib/.../libfoo.so.1 (...)", or the loader's "/lib64/ld-linux-x86-64.so.2 (...)".
    path=$(awk -v lib="$library" '$1 == lib && $3 ~ /^\// {print $3; exit}
        $1 ~ /^\// && $2 != "=>" {n = split($1, p, "/"); if (p[n] == lib) {print $1; exit}}' "$work/ldd")
    [ -n "$path" ] || { fail "$library: not resolved"; continue; }
    package=$(owner "$path") || { fail "$library ($path): no package owns it"; continue; }
    printf '%s\n' "$names" | grep -qx "$package" || fail "$library comes from $package, which Depends lacks"
done

# Every package named exists in Debian (installed here, or known to apt), so apt can install
# the .deb on a fresh machine. Without apt's package lists (no apt-get update yet) that is
# only known in CI, where cmake/deps.sh has fetched them.
for package in $(printf '%s\n' "$depends" "$(field Recommends)" | tr ',|' '\n\n' | sed 's/(.*)//; s/:.*//; s/ //g' | sort -u); do
    dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null | grep -q installed && continue
    apt-cache show "$package" >/dev/null 2>&1 && continue
    if [ "${CI:-}" = true ]; then
        fail "$package (Depends or Recommends) is not a Debian package known to apt"
    else
        echo "note: $package is neither installed nor known to apt here"
    fi
done

# The program runs from there: no display, no Vulkan needed.
export QT_QPA_PLATFORM=offscreen
out=$("$exe" --version 2>/dev/null) || fail "attention-explorer --version exited with $?"
[ "$out" = "attention-explorer $version" ] || fail "--version printed: $out"
"$exe" --help >"$work/help" 2>/dev/null || fail "attention-explorer --help exited with $?"
"$exe" --backend cpu --export "$work/figure.png" >"$work/run.log" 2>&1 || fail "--export: $(cat "$work/run.log")"
[ "$(head -c 4 "$work/figure.png" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ] || fail "--export wrote no PNG"

# On the x86-64 baseline (QEMU's qemu64: SSE2, no AVX): a Debian amd64 package must run on
# any amd64 CPU, its AVX2 and AVX-512 kernels chosen at run time only where the CPU has them.
# The same figure, computed with the baseline's kernels, must come out (and say nothing of an
# illegal instruction). qemu-user is in cmake/deps.sh; it is missing only off CI.
# A sanitizer build cannot run under qemu-user (its shadow memory is a reservation of terabytes
# that QEMU's guest address space refuses); the unsanitized builds run this check.
if [ -n "$sanitized" ]; then
    echo "baseline CPU check skipped: a $sanitized build"
elif command -v qemu-x86_64 >/dev/null 2>&1; then
    out=$(qemu-x86_64 -cpu qemu64 "$exe" --version 2>"$work/baseline.err") ||
        fail "on a baseline x86-64 CPU, --version: $(cat "$work/baseline.err")"
    [ "$out" = "attention-explorer $version" ] || fail "on a baseline x86-64 CPU, --version printed: $out"
    qemu-x86_64 -cpu qemu64 "$exe" --backend cpu --export "$work/baseline.png" >"$work/baseline.log" 2>&1 ||
        fail "on a baseline x86-64 CPU, --export: $(cat "$work/baseline.log")"
    [ "$(head -c 4 "$work/baseline.png" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ] ||
        fail "on a baseline x86-64 CPU, --export wrote no PNG"
elif [ "${CI:-}" = true ]; then
    fail "qemu-x86_64 is not installed (cmake/deps.sh installs qemu-user)"
fi

# The files beside it.
gzip -t "$root/usr/share/man/man1/attention-explorer.1.gz" || fail "the man page is not gzip"
zcat "$root/usr/share/man/man1/attention-explorer.1.gz" | grep -q "^\.TH ATTENTION-EXPLORER 1 .*$version" ||
    fail "the man page does not name version $version"
for size in 16 24 32 48 64 128 256; do
    png=$root/usr/share/icons/hicolor/${size}x${size}/apps/attention-explorer.png
    # PNG IHDR: the width and height are big-endian words at bytes 16 and 20.
    dims=$(od -An -tu1 -j16 -N8 "$png" 2>/dev/null | awk '{print $3*256+$4 "x" $7*256+$8}')
    [ "$dims" = "${size}x${size}" ] || fail "$png is $dims"
done
grep -qx 'Exec=attention-explorer %f' "$root/usr/share/applications/$id.desktop" || fail "Exec is not attention-explorer %f"

# Double-clicking a scene: with the caches dpkg's triggers would build, GIO (what GNOME's and
# Xfce's file managers open files with) sees NAME.attention.json as the scene type and opens
# it with the package's menu entry by default. (A missing gio, from libglib2.0-bin, fails CI.)
if command -v gio >/dev/null 2>&1 && command -v update-mime-database >/dev/null 2>&1 &&
    command -v update-desktop-database >/dev/null 2>&1; then
    share=$root/usr/share
    update-mime-database "$share/mime" >/dev/null 2>&1 || fail "update-mime-database on the package's types"
    update-desktop-database -q "$share/applications" || fail "update-desktop-database on the package's entry"
    mkdir -p "$work/home/data" "$work/home/config"
    printf '{"format": "attention-explorer-scene", "version": 1, "text": "Hi."}\n' >"$work/lesson.attention.json"
    as_desktop() {
        env PATH="$root/usr/bin:$PATH" XDG_DATA_DIRS="$share:/usr/share" XDG_DATA_HOME="$work/home/data" \
            XDG_CONFIG_HOME="$work/home/config" XDG_CONFIG_DIRS="$work/home/config" "$@" 2>&1
    }
    type=$(as_desktop gio info -a standard::content-type "$work/lesson.attention.json" | sed -n 's/.*content-type: //p')
    [ "$type" = application/x-attention-scene ] || fail "a file manager sees lesson.attention.json as '$type'"
    default=$(as_desktop gio mime application/x-attention-scene | sed -n '1s/.*: //p')
    [ "$default" = "$id.desktop" ] || fail "a scene opens with '$default', not $id.desktop"
elif [ "${CI:-}" = true ]; then
    fail "gio, update-mime-database or update-desktop-database is not installed (cmake/deps.sh installs them)"
fi

[ "$failures" -eq 0 ] || exit 1
echo "package checked in $(($(date +%s) - started)) s (cpack $((packed - started)) s)"
