# Shared by tools/test and tools/demo: install what is missing, and only that.

# apt_ensure PACKAGE...: installs the Debian packages that are not installed yet.
apt_ensure() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "==> installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

# pip_ensure MODULE=PACKAGE...: installs the PyPI packages whose module cannot be imported.
pip_ensure() {
    local missing=()
    for pair in "$@"; do
        local module="${pair%%=*}" package="${pair#*=}"
        python3 -c "import $module" 2>/dev/null || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "==> installing Python packages: ${missing[*]}"
    python3 -m pip --version >/dev/null 2>&1 || apt_ensure python3-pip
    # Debian's own python3 refuses system-wide installs (PEP 668) unless told otherwise.
    python3 -m pip install -q "${missing[@]}" || python3 -m pip install -q --break-system-packages "${missing[@]}"
}

# The system libraries the Swift package links (see Package.swift).
BUILD_PACKAGES=(libgmp-dev libssl-dev libsqlite3-dev libqrencode-dev libzbar-dev libpng-dev pkg-config)
