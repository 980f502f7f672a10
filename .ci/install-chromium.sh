#!/usr/bin/env bash
# Install Debian's chromium for the browser tests (tests/web; Playwright drives it: its own browser download is not
# needed), with a colour emoji font so that the docs' pictures (python -m tests.web.screenshots) show the emoji the
# pages print. As root; safe to run again.
set -euo pipefail
if command -v chromium >/dev/null; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-chromium: run me as root (apt-get install chromium)" >&2
    exit 1
fi
apt-get update >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-noto-color-emoji >&2
