#!/usr/bin/env bash
# Stops what deploy/ha/up.sh started (HAProxy, the three Patroni nodes with their Postgres, etcd) by the process ids
# it recorded, and removes $HA_DIR. Packages stay installed.
set -uo pipefail
HA_DIR=${HA_DIR:-/var/lib/platform-ha}
[ -d "$HA_DIR" ] || { echo "nothing under $HA_DIR"; exit 0; }

stop_pid() { # pidfile [signal]
  [ -f "$1" ] || return 0
  local pid; pid=$(cat "$1")
  kill "-${2:-TERM}" "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

stop_pid "$HA_DIR/haproxy.pid"
# Patroni stops its Postgres when it stops; a postmaster left behind (its Patroni killed) is stopped by its pid file
for n in node1 node2 node3; do stop_pid "$HA_DIR/$n/patroni.pid"; done
for n in node1 node2 node3; do
  pm="$HA_DIR/$n/data/postmaster.pid"
  [ -f "$pm" ] && { head -1 "$pm" > "$HA_DIR/$n/postmaster.pidonly"; stop_pid "$HA_DIR/$n/postmaster.pidonly" INT; }
done
stop_pid "$HA_DIR/etcd.pid"
rm -rf "$HA_DIR"
echo "stopped and removed $HA_DIR"
