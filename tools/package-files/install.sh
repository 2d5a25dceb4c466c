#!/bin/sh
# Installs this ZKPin release on Debian (docs/operator.md, "Install"):
#   - the system libraries of DEPENDS (apt-get), and a system user `zkpin`;
#   - this folder as /opt/zkpin-VERSION, /opt/zkpin pointing at it (an upgrade moves the link),
#     and /usr/local/bin/zkpin and /usr/local/bin/zkpin-server;
#   - /etc/zkpin (root:zkpin 0750) with zkpin.json from etc/zkpin.json unless one is there;
#   - the systemd units zkpin.service (and zkpin-dta2.service, for D-TA 2's own machine),
#     neither enabled nor started: edit /etc/zkpin/zkpin.json first.
# Run it again from a newer tarball to upgrade; the configuration and /var/lib/zkpin stay.
#   --no-deps   do not run apt-get (the libraries are installed some other way)
# ZKPIN_INSTALL_ROOT=DIR installs the same files under DIR instead of / (DIR/opt/zkpin,
# DIR/usr/local/bin, DIR/etc/zkpin, DIR/etc/systemd/system), without apt-get, useradd,
# chgrp or systemctl: to look at an install, or to build an image (tools/package-test uses it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
version=$(cat "$here/VERSION")
root=${ZKPIN_INSTALL_ROOT:-}
deps=1
for arg in "$@"; do
    case "$arg" in
        --no-deps) deps=0 ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: install.sh [--no-deps]" >&2; exit 64 ;;
    esac
done

if [ -z "$root" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (sudo $0)" >&2; exit 1; }
    if [ "$deps" = 1 ]; then
        packages=$(sed -n 's/^Depends: //p' "$here/DEPENDS" | tr -d ',')
        echo "==> apt-get install $packages"
        apt-get update -qq
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages
    fi
    if ! getent passwd zkpin >/dev/null; then
        echo "==> system user zkpin"
        useradd --system --user-group --home-dir /var/lib/zkpin --no-create-home --shell /usr/sbin/nologin zkpin
    fi
fi

echo "==> $root/opt/zkpin-$version"
mkdir -p "$root/opt" "$root/usr/local/bin" "$root/etc/systemd/system"
rm -rf "$root/opt/zkpin-$version.new"
cp -R "$here" "$root/opt/zkpin-$version.new"
rm -rf "$root/opt/zkpin-$version"
mv "$root/opt/zkpin-$version.new" "$root/opt/zkpin-$version"
ln -sfn "zkpin-$version" "$root/opt/zkpin"
# Relative links (../../opt/zkpin/...): /opt/zkpin without a root, the root's own /opt/zkpin
# with ZKPIN_INSTALL_ROOT, so they never point outside the tree they were installed into.
ln -sfn ../../../opt/zkpin/bin/zkpin "$root/usr/local/bin/zkpin"
ln -sfn ../../../opt/zkpin/bin/zkpin-server "$root/usr/local/bin/zkpin-server"

install -d -m 0750 "$root/etc/zkpin"
if [ ! -e "$root/etc/zkpin/zkpin.json" ]; then
    install -m 0640 "$here/etc/zkpin.json" "$root/etc/zkpin/zkpin.json"
    fresh=1
else
    fresh=0
fi
[ -z "$root" ] && chgrp zkpin "$root/etc/zkpin" "$root/etc/zkpin/zkpin.json"
install -m 0644 "$here/systemd/zkpin.service" "$here/systemd/zkpin-dta2.service" "$root/etc/systemd/system/"
if [ -z "$root" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    systemctl daemon-reload
fi

echo "==> installed ZKPin $version"
if [ "$fresh" = 1 ]; then
    cat <<NEXT
Next:
  1. edit /etc/zkpin/zkpin.json (public-url, service-name, mail-from, smtp; docs in /opt/zkpin/share/doc/zkpin/docs)
  2. put the SMTP password in /etc/zkpin/smtp-password:
       install -o zkpin -g zkpin -m 0600 /dev/null /etc/zkpin/smtp-password && editor /etc/zkpin/smtp-password
  3. zkpin-server config check --config /etc/zkpin/zkpin.json
  4. systemctl enable --now zkpin && curl -s http://127.0.0.1:8080/status
NEXT
else
    echo "kept /etc/zkpin/zkpin.json; restart with: systemctl restart zkpin"
fi
