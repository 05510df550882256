# What the deploy/ha scripts share (sourced after HA_DIR is set): pgBackRest as postgres with the three-node
# configuration, and stopping the processes up.sh recorded.

PGBR=$HA_DIR/pgbackrest
pgbackrest_all() { runuser -u postgres -- env PGPASSFILE="$PGBR/pgpass" pgbackrest --config="$PGBR/pgbackrest.conf" --stanza=platform "$@"; }

stop_pid() { # pidfile [signal] [seconds before SIGKILL, 30]
  [ -f "$1" ] || return 0
  local pid; pid=$(cat "$1")
  kill "-${2:-TERM}" "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 $(( ${3:-30} * 5 ))); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

stop_nodes() { # [seconds before SIGKILL]: the three Patroni nodes at once, then a postmaster left behind by its pid file
  local n pm
  for n in node1 node2 node3; do stop_pid "$HA_DIR/$n/patroni.pid" TERM "${1:-30}" & done; wait
  for n in node1 node2 node3; do
    pm="$HA_DIR/$n/data/postmaster.pid"
    [ -f "$pm" ] && { head -1 "$pm" > "$HA_DIR/$n/postmaster.pidonly"; stop_pid "$HA_DIR/$n/postmaster.pidonly" INT "${1:-30}"; }
  done
  return 0
}
