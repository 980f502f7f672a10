#!/usr/bin/env bash
# Install Debian's chromium for the browser tests (tests/web; Playwright drives it: its own browser download is not
# needed). As root; safe to run again.
set -euo pipefail
if command -v chromium >/dev/null; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-chromium: run me as root (apt-get install chromium)" >&2
    exit 1
fi
apt-get update >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >&2
