# Shared helpers for the set-up scripts in this folder (sourced, not run).
set -euo pipefail
VENV=${VENV:-.venv}
PY="$VENV/bin/python"

# apt_update_once: `apt-get update`, once per boot.
apt_update_once() {
    local stamp=/tmp/.minitools-apt-updated
    if [ ! -f "$stamp" ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        touch "$stamp"
    fi
}

# apt_unpack PKG DIR: download one Debian package (no dependencies, nothing installed) and unpack
# its files into DIR.
apt_unpack() {
    local pkg=$1 dir=$2 tmp
    apt_update_once
    tmp=$(mktemp -d)
    (cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "$pkg") || { rm -rf "$tmp"; return 1; }
    mkdir -p "$dir"
    dpkg-deb -x "$tmp"/*.deb "$dir"
    rm -rf "$tmp"
}

# apt_install PKG...: install the Debian packages that are missing; `apt-get update` once per boot.
apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# pip_install SPEC...: install into the project venv, quietly.
pip_install() {
    "$PY" -m pip install -q --disable-pip-version-check "$@"
}
