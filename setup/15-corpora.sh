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
# and for the languages beyond those eight (tests/match/test_languages_wide.py), a few MB each,
# only the files of the language kept, each corpus in benchmarks/corpora/<folder>:
#   ruby      Ruby 3.1's standard library, Debian libruby3.1 (Ruby's licence / BSD-2-Clause)
#   cpp       googletest's sources (Debian googletest, BSD-3-Clause) and Asio's headers
#             (Debian libasio-dev, BSL-1.0)
#   php       Doctrine ORM, Debian php-doctrine-orm (MIT)
#   lua       Penlight, Debian lua-penlight (MIT)
#   bash      bash-completion's completion scripts, Debian bash-completion (GPL-2+), each
#             written NAME.bash (they have no suffix of their own)
#   hcl       the test data and specs of HashiCorp's Go modules for HCL 1 and 2, terraform-json and
#             go-getter, Debian golang-github-hashicorp-{hcl-v2,hcl,terraform-json,go-getter}-dev
#             (MPL-2.0): .hcl, .tf, .tfvars and .json
#   ansible   Ansible's .yml and .json files, Debian ansible-core (GPL-3+): the YAML and JSON corpus
#   html      Git's manual pages as HTML, Debian git-doc (GPL-2)
#   solidity  OpenZeppelin Contracts, npm @openzeppelin/contracts (MIT): .sol
#   expo      Expo's native modules core, npm expo-modules-core (MIT): its .kt and .swift files
#   css       Bootstrap, npm bootstrap (MIT): .scss and .css
#   tsx       TanStack Router and Query, npm @tanstack/react-router and @tanstack/react-query (MIT): .tsx
#   csharp    Python.NET's runtime, PyPI pythonnet sdist (MIT): .cs
#   haskell   the libraries Hugs ships as Haskell sources: Cabal, fgl, parsec, mtl, haskell-src,
#             QuickCheck and xhtml, Debian libhugs-*-bundled (BSD-3-Clause each): .hs
# (Scala, Elixir and Nix sources are in none of the registries this machine reaches: a sample of a
# public project of each is committed in tests/corpora/, its README says which)
# and one whole project for the task benchmark (benchmarks/bench_tasks.py), its tests and configuration kept:
#   click     Click 8.5.1's sdist, PyPI click (BSD-3-Clause), in benchmarks/corpora/click
# and the code a real rule project runs on (bench_rules.py's rule-project row, with the rules of
# benchmarks/rulesets/dd-trace-py):
#   ddtrace   the Python files of the ddtrace 4.16.0 wheel, PyPI ddtrace (Apache-2.0 or BSD-3-Clause)
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
# the corpora beyond the eight: tests/corpora.py names the same folders
EXPO_PACKAGE=expo-modules-core@58.2.0
TSX_PACKAGES=(@tanstack/react-router@1.170.46 @tanstack/react-query@5.108.4)
PYPI_SDISTS=(pythonnet==3.2.1)
CLICK_SDIST=click==8.5.1  # benchmarks/tasks/_projects.py names the same folder
DDTRACE_WHEEL=ddtrace==4.16.0  # benchmarks/rulesets/dd-trace-py/README.md names the same version

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

# keep DIR SUFFIX...: move the files of DIR whose names end in one of the suffixes to DIR/../out,
# keeping their paths (a Python package's from its own folder: tests/corpora.py leaves out
# whatever lies below dist-packages), and drop the rest, and Go's fuzzing inputs (`go test fuzz v1`
# files, named like the language they feed but no code of it).
keep() {
    local dir=$1 out; out=$(dirname "$1")/out; shift
    local args=() s
    for s in "$@"; do args+=(-o -name "*$s"); done
    (cd "$dir" && find . -type f \( -false "${args[@]}" \) -print0) |
        while IFS= read -r -d '' f; do
            head -c 12 "$dir/$f" | grep -q '^go test fuzz' && continue
            local to=${f#./usr/lib/python3/dist-packages/}
            mkdir -p "$out/$(dirname "$to")"; mv "$dir/$f" "$out/$to"
        done
    rm -rf "$dir"
}

# apt_corpus NAME SUFFIXES PKG...: the packages' files with those suffixes (space separated).
apt_corpus() {
    local name=$1 suffixes=$2 tmp; shift 2
    [ -d "$CORPORA/$name" ] && return 0
    tmp=$(fresh "$name")
    for pkg in "$@"; do apt_unpack "$pkg" "$tmp/deb"; done
    # shellcheck disable=SC2086
    keep "$tmp/deb" $suffixes
    done_ "$name"
}

apt_corpus ruby ".rb" libruby3.1
apt_corpus cpp ".cc .hpp" googletest libasio-dev
apt_corpus php ".php" php-doctrine-orm
apt_corpus lua ".lua" lua-penlight
apt_corpus hcl ".hcl .tf .tfvars .json" golang-github-hashicorp-hcl-v2-dev golang-github-hashicorp-hcl-dev \
    golang-github-hashicorp-terraform-json-dev golang-github-hashicorp-go-getter-dev
apt_corpus ansible ".yml .yaml .json" ansible-core
apt_corpus html ".html" git-doc
apt_corpus haskell ".hs" libhugs-cabal-bundled libhugs-fgl-bundled libhugs-parsec-bundled libhugs-mtl-bundled \
    libhugs-haskell-src-bundled libhugs-quickcheck-bundled libhugs-xhtml-bundled

if [ ! -d "$CORPORA/bash" ]; then
    tmp=$(fresh bash)
    apt_unpack bash-completion "$tmp/deb"
    mkdir -p "$tmp/out"
    for f in "$tmp"/deb/usr/share/bash-completion/completions/*; do
        [ -f "$f" ] && [ ! -L "$f" ] && cp "$f" "$tmp/out/$(basename "$f").bash"
    done
    done_ bash
fi

# npm_corpus NAME SUFFIXES SPEC...: the packages' files with those suffixes.
npm_corpus() {
    local name=$1 suffixes=$2 tmp; shift 2
    [ -d "$CORPORA/$name" ] && return 0
    tmp=$(fresh "$name")
    npm_unpack "$tmp/pkg" "$@"
    # shellcheck disable=SC2086
    keep "$tmp/pkg" $suffixes
    done_ "$name"
}

npm_corpus solidity ".sol" @openzeppelin/contracts@5.7.0
npm_corpus expo ".kt .swift" "$EXPO_PACKAGE"
npm_corpus css ".scss .css" bootstrap@5.3.9
npm_corpus tsx ".tsx" "${TSX_PACKAGES[@]}"

# pypi_corpus NAME SUFFIXES SPEC: the sdist's files with those suffixes.
pypi_corpus() {
    local name=$1 suffixes=$2 spec=$3 tmp
    [ -d "$CORPORA/$name" ] && return 0
    tmp=$(fresh "$name")
    "$PY" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: "$spec" -d "$tmp/dl"
    mkdir -p "$tmp/src"
    tar -xzf "$tmp"/dl/*.tar.gz -C "$tmp/src" --strip-components=1
    # shellcheck disable=SC2086
    keep "$tmp/src" $suffixes
    done_ "$name"
}

pypi_corpus csharp ".cs" "${PYPI_SDISTS[0]}"

# the rule project's code: the wheel's Python files (its sdist needs a native build for its metadata)
if [ ! -d "$CORPORA/ddtrace" ]; then
    tmp=$(fresh ddtrace)
    "$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary :all: "$DDTRACE_WHEEL" -d "$tmp/dl"
    "$PY" - "$tmp" <<'UNZIP'
import sys, zipfile, glob, pathlib
tmp = pathlib.Path(sys.argv[1])
with zipfile.ZipFile(glob.glob(str(tmp / "dl" / "*.whl"))[0]) as wheel:
    for name in wheel.namelist():
        if name.endswith(".py"):
            wheel.extract(name, tmp / "out")
UNZIP
    done_ ddtrace
fi

# the task benchmark's Python project: the whole sdist (sources, tests, pyproject.toml)
if [ ! -d "$CORPORA/click" ]; then
    tmp=$(fresh click)
    "$PY" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: "$CLICK_SDIST" -d "$tmp/dl"
    mkdir -p "$tmp/out"
    tar -xzf "$tmp"/dl/*.tar.gz -C "$tmp/out" --strip-components=1
    done_ click
fi

# the running interpreter's standard library without site-packages (the stdlib rows of
# benchmarks/bench_match.py, and tests/rules/test_rule_prefilter.py's second corpus)
"$PY" -c 'import sys; sys.path.insert(0, "benchmarks"); import bench_match; bench_match.fetch_stdlib()'
