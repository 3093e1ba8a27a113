#!/bin/sh
# promtool and the Prometheus server from Debian's `prometheus` package, unpacked into DIR/usr/bin.
# Downloaded and unpacked rather than installed: no service is registered or started, nothing outside
# DIR changes, and no root is needed once apt's package lists exist. Used by `make check-deploy`
# (promtool) and tests/integration/test_prometheus.py (the server, on loopback).
# Where the package cannot be had, this says why and exits 0: the checks that need it then skip.
set -eu
dir=${1:?usage: debian_prometheus.sh DIR}
if command -v promtool >/dev/null && command -v prometheus >/dev/null; then
    echo "prometheus: using promtool and prometheus from PATH"
    exit 0
fi
if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
    echo "SKIP prometheus: no apt-get here; install Debian's prometheus package (or put promtool and" \
        "prometheus on PATH) to run the alert-rule tests and the Prometheus integration test"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt downloads as its sandbox user _apt where that user can write (and warns otherwise)
if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$work"; fi
fetch() { (cd "$work" && apt-get download prometheus >"$work/apt.log" 2>&1); }
if ! fetch; then
    if [ "$(id -u)" -eq 0 ]; then
        # a fresh machine may have no package lists yet
        apt-get update -qq >"$work/update.log" 2>&1 || true
    fi
    if ! fetch; then
        echo "SKIP prometheus: 'apt-get download prometheus' failed (as $(id -un); root can refresh" \
            "the package lists with apt-get update):"
        sed 's/^/    /' "$work/apt.log"
        exit 0
    fi
fi
rm -rf "$dir"
mkdir -p "$dir"
dpkg-deb -x "$work"/prometheus_*.deb "$dir"
echo "prometheus: $("$dir/usr/bin/promtool" --version 2>&1 | head -1) in $dir"
