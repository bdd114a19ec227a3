#!/usr/bin/env bash
# Prepare what the loopback test websites (tests/sites/) need. Idempotent; run as root on Debian 12.
#   - installs nginx (nginx-light) when no nginx binary is on the machine
#   - installs chromium (screenshots) when it is missing
#   - downloads the Debian documentation packages the sites are built from into a cache dir
#     ($WEBCORPUS_TEST_CACHE, default $HOME/.cache/webcorpus-test) and unpacks them once.
# Set WEBCORPUS_TEST_DEBS_FROM=DIR to copy already-downloaded .debs from DIR instead of downloading.
set -euo pipefail

CACHE="${WEBCORPUS_TEST_CACHE:-$HOME/.cache/webcorpus-test}"
DEBS="$CACHE/debs"
ROOT="$CACHE/root"
# libjs-jquery / libjs-underscore: python3.11-doc's _static/jquery.js and underscore.js are
# symlinks into them; unpacked into the same root, those links resolve.
PACKAGES=(python3.11-doc postgresql-doc-15 debian-handbook libjs-jquery libjs-underscore)

log() { printf 'setup-test-env: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_update_once() {
  if [ "$apt_updated" -eq 0 ]; then
    as_root apt-get update -qq
    apt_updated=1
  fi
}

# Package lists missing or empty: apt-get download/install would find nothing.
if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
  apt_update_once
fi

# 1. nginx (without letting the package start a system-wide nginx on port 80).
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  log "installing nginx-light"
  made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee /usr/sbin/policy-rc.d >/dev/null
    as_root chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  install_nginx() {
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends \
      nginx-light || DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq \
      --no-install-recommends nginx
  }
  install_nginx || { apt_update_once; install_nginx; }
  if [ "$made_policy" -eq 1 ]; then as_root rm -f /usr/sbin/policy-rc.d; fi
else
  log "nginx already installed"
fi

# 1b. Chromium for screenshots (Debian's package; Playwright drives it, never downloads one).
if ! command -v chromium >/dev/null 2>&1; then
  log "installing chromium"
  install_chromium() {
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends chromium
  }
  install_chromium || { apt_update_once; install_chromium; }
else
  log "chromium already installed"
fi

# 2. Download the .debs into the cache.
mkdir -p "$DEBS" "$ROOT"
for pkg in "${PACKAGES[@]}"; do
  if compgen -G "$DEBS/${pkg}_*.deb" >/dev/null; then
    continue
  fi
  if [ -n "${WEBCORPUS_TEST_DEBS_FROM:-}" ] && compgen -G "$WEBCORPUS_TEST_DEBS_FROM/${pkg}_*.deb" \
    >/dev/null; then
    log "copying $pkg from $WEBCORPUS_TEST_DEBS_FROM"
    cp "$WEBCORPUS_TEST_DEBS_FROM/${pkg}"_*.deb "$DEBS/"
    continue
  fi
  log "downloading $pkg"
  # apt-get download writes into the current directory; run it as the _apt-readable cache dir.
  (cd "$DEBS" && apt-get download -qq -o APT::Sandbox::User=root "$pkg") || {
    apt_update_once
    (cd "$DEBS" && apt-get download -qq -o APT::Sandbox::User=root "$pkg")
  }
done

# 3. Unpack each package once (a stamp file per package and version).
for deb in "$DEBS"/*.deb; do
  stamp="$ROOT/.unpacked-$(basename "$deb" .deb)"
  if [ -e "$stamp" ]; then
    continue
  fi
  log "unpacking $(basename "$deb")"
  dpkg-deb -x "$deb" "$ROOT"
  touch "$stamp"
done

log "ready: $ROOT"
