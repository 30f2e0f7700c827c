#!/usr/bin/env bash
# Installs the system packages the test suite uses for real: PostgreSQL (initdb, pg_ctl), Chromium
# (headless reports) and a CJK font (reports quote the Chinese rulebook: fonts-noto-cjk). Does nothing
# when they are already there.
set -euo pipefail
need=()
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
{ [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ]; } || command -v initdb >/dev/null 2>&1 || need+=(postgresql)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
{ command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list ':lang=zh-tw' family 2>/dev/null)" ]; } || need+=(fonts-noto-cjk)
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${need[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
