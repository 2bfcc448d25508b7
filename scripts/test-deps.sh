#!/bin/sh
# npm test's pretest: the suite needs redis-server (on PATH) and Chromium (at /usr/bin/chromium).
# Installs what is missing with apt-get when it can (root and apt-get present), or stops at once
# naming the exact command to run. Nothing is installed when both are already there.
set -eu

missing=""
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -z "$missing" ] && exit 0

packages=$(echo "$missing" | sed 's/^ //')
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "test-deps: installing $packages with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
  exit 0
fi

if command -v apt-get >/dev/null 2>&1; then
  how="sudo apt-get install -y $packages"
elif command -v brew >/dev/null 2>&1; then
  how="brew install ${missing# } (and point /usr/bin/chromium at Chromium)"
else
  how="install $packages with your package manager (Chromium must be at /usr/bin/chromium)"
fi
echo "npm test needs$missing, which is not installed. Run: $how" >&2
exit 1
