#!/usr/bin/env bash
# Make Debian's Chromium available for the web page tests (Playwright drives it through
# executable_path; Playwright never downloads a browser of its own here).
set -uo pipefail

if command -v chromium >/dev/null 2>&1; then
  echo "chromium: $(chromium --version 2>/dev/null | head -1)"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "warning: chromium is missing; install it as root (apt-get install chromium); the browser tests will be skipped" >&2
  exit 0
fi
echo "installing chromium ..."
apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
  || { echo "warning: could not install chromium; the browser tests will be skipped" >&2; exit 0; }
echo "chromium: $(chromium --version 2>/dev/null | head -1)"
