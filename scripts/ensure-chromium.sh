#!/usr/bin/env bash
# Make sure a Chromium for the browser tests exists (Playwright cannot download its own
# browsers here): $DOMINARI_CHROMIUM, or chromium on PATH, or Debian's package installed
# with apt (as root, or with password-less sudo). Prints the binary's path.
set -euo pipefail

if [ -n "${DOMINARI_CHROMIUM:-}" ]; then
    [ -x "$DOMINARI_CHROMIUM" ] || { echo "error: DOMINARI_CHROMIUM=$DOMINARI_CHROMIUM is not an executable file" >&2; exit 1; }
    echo "$DOMINARI_CHROMIUM"; exit 0
fi
if command -v chromium >/dev/null 2>&1; then command -v chromium; exit 0; fi

sudo=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"
    else
        echo "error: Chromium is missing and cannot be installed without root: run 'sudo apt-get install chromium' or set DOMINARI_CHROMIUM" >&2
        exit 1
    fi
fi
command -v apt-get >/dev/null 2>&1 || {
    echo "error: Chromium is missing and apt-get is not available: install Chromium and set DOMINARI_CHROMIUM to its path" >&2
    exit 1
}
echo "Installing Debian's chromium for the browser tests (once)…" >&2
apt=(timeout 900 $sudo env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=120)
"${apt[@]}" install chromium >&2 || { "${apt[@]}" update >&2 && "${apt[@]}" install chromium >&2; } || {
    echo "error: 'apt-get install chromium' failed (see above)" >&2
    exit 1
}
command -v chromium
