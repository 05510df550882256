#!/usr/bin/env bash
# Makes promtool and prometheus available (Debian's package "prometheus", 2.42) and prints promtool's path. The one place
# the project installs them: .ci/run and check.sh call it; the rule tests in ./mvnw verify use what it installed.
# The package starts a Prometheus service on :9090; it is stopped and disabled: the checks start their own.
set -euo pipefail
if ! command -v promtool >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "promtool is missing and cannot be installed here (needs root and apt-get): apt-get install prometheus" >&2
    exit 1
  fi
  echo "installing Debian's prometheus (promtool)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends prometheus >&2 \
    || { apt-get -o DPkg::Lock::Timeout=600 update >&2 && apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends prometheus >&2; }
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl disable --now prometheus >&2 2>/dev/null || true
  fi
  # without systemd the package's init script may have started one: stop it by its pid file
  if [ -f /run/prometheus/prometheus.pid ]; then
    kill "$(cat /run/prometheus/prometheus.pid)" 2>/dev/null || true
  fi
  if command -v service >/dev/null 2>&1; then service prometheus stop >&2 2>/dev/null || true; fi
fi
command -v promtool
