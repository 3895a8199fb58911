#!/usr/bin/env bash
# Real code for the per-language structural-search tests (tests/match/test_languages.py) and the
# benchmark's large corpora (benchmarks/bench_match.py), fetched through the package clients only:
#   Go      Go's source tree, from Debian's golang-src (/usr/lib/go-*/src)
#   Rust    a handful of crates' sources, from Debian's librust-*-dev (/usr/share/cargo/registry)
#   C       the GNU C library's .c and .h files (all but sysdeps/), unpacked from Debian's
#           glibc-source into benchmarks/corpora/glibc
#   Java    the JDK's java.base sources, unpacked from Debian's openjdk-17-source src.zip
#           into benchmarks/corpora/jdk-java.base
#   TS      npm packages that ship TypeScript (rxjs, effect, @tensorflow/tfjs-core, `npm pack`)
#           into benchmarks/corpora/typescript
#   Dart    the .dart files of the tree-sitter-dart npm package into benchmarks/corpora/dart
# benchmarks/corpora/ is git-ignored. Idempotent: each corpus is fetched only if its folder is missing
# (a folder appears only complete, by a rename at the end).
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
CORPORA=benchmarks/corpora
mkdir -p "$CORPORA"

# GOLANG_SRC, RUST_CRATES, TS_PACKAGES, DART_PACKAGE: tests/corpora.py names the same.
RUST_CRATES=(librust-libc-dev librust-memchr-dev librust-regex-dev librust-regex-syntax-dev
             librust-serde-dev librust-syn-dev librust-proc-macro2-dev librust-quote-dev)
TS_PACKAGES=(rxjs@7.8.2 effect@3.22.4 @tensorflow/tfjs-core@4.22.0)
DART_PACKAGE=tree-sitter-dart@1.0.0

command -v unzip >/dev/null || apt_install unzip
command -v xz >/dev/null || apt_install xz-utils
compgen -G "/usr/lib/go-*/src/go/ast/ast.go" >/dev/null || apt_install golang-src
apt_install "${RUST_CRATES[@]}"

# fresh NAME: a temporary folder to build benchmarks/corpora/NAME in; done NAME moves it in place.
fresh() { rm -rf "$CORPORA/.$1.tmp"; mkdir -p "$CORPORA/.$1.tmp"; echo "$CORPORA/.$1.tmp"; }
done_() { mv "$CORPORA/.$1.tmp/out" "$CORPORA/$1"; rm -rf "$CORPORA/.$1.tmp"; }

if [ ! -d "$CORPORA/glibc" ]; then
    tmp=$(fresh glibc)
    apt_unpack glibc-source "$tmp/deb"
    mkdir -p "$tmp/out"
    tar -xJf "$tmp"/deb/usr/src/glibc/glibc-*.tar.xz -C "$tmp/out" --strip-components=1 \
        --wildcards --exclude='*/sysdeps/*' '*.c' '*.h'
    done_ glibc
fi

if [ ! -d "$CORPORA/jdk-java.base" ]; then
    tmp=$(fresh jdk-java.base)
    apt_unpack openjdk-17-source "$tmp/deb"
    src_zip=$(find "$tmp/deb" -name src.zip -type f | head -n 1)
    [ -n "$src_zip" ] || { echo "openjdk-17-source has no src.zip" >&2; exit 1; }
    mkdir -p "$tmp/out"
    unzip -q "$src_zip" 'java.base/*' -d "$tmp/unzipped"
    mv "$tmp/unzipped/java.base"/* "$tmp/out/"
    done_ jdk-java.base
fi

# npm_unpack DIR SPEC...: each package's published tree into DIR/<name>.
npm_unpack() {
    local dir=$1; shift
    command -v npm >/dev/null || apt_install nodejs npm
    for spec in "$@"; do
        local name=${spec%@*} packdir
        packdir=$(mktemp -d)
        (cd "$packdir" && npm pack "$spec" --silent >/dev/null)
        mkdir -p "$dir/${name//\//__}"
        tar -xzf "$packdir"/*.tgz -C "$dir/${name//\//__}" --strip-components=1
        rm -rf "$packdir"
    done
}

if [ ! -d "$CORPORA/typescript" ]; then
    tmp=$(fresh typescript)
    npm_unpack "$tmp/out" "${TS_PACKAGES[@]}"
    done_ typescript
fi

if [ ! -d "$CORPORA/dart" ]; then
    tmp=$(fresh dart)
    npm_unpack "$tmp/pkg" "$DART_PACKAGE"
    mkdir -p "$tmp/out"
    find "$tmp/pkg" -name '*.dart' -exec cp {} "$tmp/out/" \;
    done_ dart
fi
