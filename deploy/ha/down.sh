#!/usr/bin/env bash
# Stops what deploy/ha/up.sh started (HAProxy, the three Patroni nodes with their Postgres, etcd) by the process ids
# it recorded, and removes $HA_DIR. Packages stay installed.
set -uo pipefail
HA_DIR=${HA_DIR:-/var/lib/platform-ha}
[ -d "$HA_DIR" ] || { echo "nothing under $HA_DIR"; exit 0; }
# shellcheck source=deploy/ha/lib.sh
. "$(dirname "$0")/lib.sh"

stop_pid "$HA_DIR/haproxy.pid"
# Patroni stops its Postgres when it stops; a postmaster left behind (its Patroni killed) is stopped by its pid file
stop_nodes
stop_pid "$HA_DIR/etcd.pid"
rm -rf "$HA_DIR"
echo "stopped and removed $HA_DIR"
