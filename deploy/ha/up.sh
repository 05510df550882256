#!/usr/bin/env bash
# Replicated Postgres on this machine, one command: three PostgreSQL 15 nodes managed by Patroni over etcd, synchronous
# replication, and one read-write endpoint (HAProxy, routed by Patroni's REST health check) that the services use
# through their usual DB_* settings. Everything listens on 127.0.0.1; everything lives under $HA_DIR.
#
#   deploy/ha/up.sh      as root; apt-installs patroni, etcd-server and haproxy when missing (postgresql-15 too)
#   deploy/ha/down.sh    stops everything and removes $HA_DIR
#
# Running up.sh again starts only what is not running: after a node was killed, it restarts that node's Patroni,
# which rewinds the old primary (pg_rewind) and brings it back as a replica.
#
# Environment: HA_DIR (/var/lib/platform-ha), HA_PORT_BASE (15400): etcd +0/+1, Postgres +11..+13, Patroni REST
# +21..+23, HAProxy read-write +30, HAProxy stats +31.
# Ends by printing DB_REACTIVE_URL, DB_JDBC_URL, DB_USER, DB_PASSWORD and each node's Patroni REST address; the
# same lines are kept in $HA_DIR/env (mode 600) for scripts to source.
set -euo pipefail

HA_DIR=${HA_DIR:-/var/lib/platform-ha}
BASE=${HA_PORT_BASE:-15400}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
ETCD_PORT=$BASE; ETCD_PEER=$((BASE + 1)); RW_PORT=$((BASE + 30)); STATS_PORT=$((BASE + 31))
NODES=(node1 node2 node3)
pg_port() { echo $((BASE + 10 + ${1#node})); }
rest_port() { echo $((BASE + 20 + ${1#node})); }

[ "$(id -u)" = 0 ] || { echo "run as root (Patroni runs as the postgres user through runuser; apt may install packages)" >&2; exit 1; }

# ---------------------------------------------------------------- packages
missing=()
command -v patroni >/dev/null || missing+=(patroni)
command -v etcd >/dev/null || missing+=(etcd-server)
command -v haproxy >/dev/null || missing+=(haproxy)
[ -x "$PGBIN/postgres" ] || missing+=(postgresql-15)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >&2
fi
id postgres >/dev/null 2>&1 || { echo "no postgres user (the postgresql-15 package creates it)" >&2; exit 1; }

mkdir -p "$HA_DIR"; chmod 711 "$HA_DIR"
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
# start_bg pidfile logfile user cmd...: a daemon in a session of its own, so it outlives this script and its terminal;
# setpriv execs (no child process), so the pid file holds the daemon itself
start_bg() {
  local pidfile=$1 logfile=$2 user=$3; shift 3
  if [ "$user" = root ]; then setsid "$@" >>"$logfile" 2>&1 < /dev/null &
  else HOME=$(getent passwd "$user" | cut -d: -f6) setsid setpriv --reuid "$user" --regid "$user" --init-groups "$@" >>"$logfile" 2>&1 < /dev/null &
  fi
  echo $! > "$pidfile"
}
wait_http() { # url seconds [expected status]
  local i
  for i in $(seq 1 $(( $2 * 5 ))); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1" 2>/dev/null)" = "${3:-200}" ] && return 0
    sleep 0.2
  done
  return 1
}

# ---------------------------------------------------------------- credentials (generated once)
if [ ! -f "$HA_DIR/secrets" ]; then
  umask 077
  { echo "SUPERUSER_PASSWORD=$(openssl rand -hex 16)"; echo "REPLICATION_PASSWORD=$(openssl rand -hex 16)"; } > "$HA_DIR/secrets"
  umask 022
fi
# shellcheck disable=SC1091
. "$HA_DIR/secrets"

# ---------------------------------------------------------------- etcd (the DCS holding Patroni's leader lock)
mkdir -p "$HA_DIR/etcd"; chown postgres: "$HA_DIR/etcd"; chmod 700 "$HA_DIR/etcd"
if ! alive "$HA_DIR/etcd.pid"; then
  start_bg "$HA_DIR/etcd.pid" "$HA_DIR/etcd.log" postgres etcd --name etcd1 --data-dir "$HA_DIR/etcd/data" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
    --initial-cluster "etcd1=http://127.0.0.1:$ETCD_PEER" --initial-cluster-state new
  wait_http "http://127.0.0.1:$ETCD_PORT/health" 30 || { echo "etcd did not start (see $HA_DIR/etcd.log)" >&2; exit 1; }
fi

# ---------------------------------------------------------------- Patroni, one per node
# DCS settings (bootstrap.dcs, written to etcd by the first node; PATCH /config below brings an existing cluster to the
# same values). Where a failover's time goes, from the kill of the leader's node (measured in docs/benchmarks.md):
# - the leader key outlives its dead owner until its etcd lease ends: ttl 8 s. loop_wait 1 and retry_timeout 3 are
#   the smallest values Patroni's "Dynamic Configuration Settings" allow, and ttl 8 keeps its rule
#   loop_wait + 2 * retry_timeout <= ttl (1 + 6 <= 8) with a second to spare for a loaded machine. Patroni 3.2 and later
#   document 20 as ttl's minimum and raise a smaller value to 20 (with a warning): there a lost node fails over only
#   ~20 s after its death. Debian 12's Patroni 3.0.2, which this script installs, takes 8 as written.
# - the synchronous standby promotes itself at once (a watch on the leader key wakes it; maximum_lag_on_failover
#   keeps a replica that lags by more than 1 MiB out of the race).
# - synchronous_mode_strict: a commit is acknowledged only once a second node has it, even when no replica is left
#   (writes then wait instead of going on alone): an acknowledged payment survives the loss of any one node. So the
#   new primary commits nothing until the remaining replica streams from it ("Replication modes").
# - use_slots false: with slots that replica may stream only through a slot the new primary creates for it, which
#   Patroni 3.0.2 does in the HA cycle after the promotion's checkpoint: 2-3 s in which every commit waits. Without
#   slots it follows the candidate before the promotion and goes on across the new timeline. What keeps WAL for a
#   replica instead is wal_keep_size (PostgreSQL's "Log-Shipping Standby Servers": the documented alternative to
#   slots). Patroni 3.0.2 drops a member's slot anyway once the member's key expires (ttl), so for a lost node
#   wal_keep_size was already all that held its WAL; a node away for more than 256 MB of WAL is rebuilt with
#   `patronictl reinit`.
# - a replica retries its primary every second (wal_retrieve_retry_interval, PostgreSQL's default 5 s).
# - primary_start_timeout 0: a primary whose Postgres crashed (its Patroni alive) hands over to the synchronous standby
#   at once instead of crash recovery and a restart in place (Patroni's default, up to 300 s; measured 10-12 s here
#   under load). Patroni's "Dynamic Configuration Settings" warn that with asynchronous replication this can lose
#   transactions; in strict synchronous mode the standby has every acknowledged commit, and Patroni fails over only
#   when a healthy candidate exists (otherwise it restarts in place). The old primary rejoins by itself (pg_rewind).
DCS_PATCH='{"ttl": 8, "loop_wait": 1, "retry_timeout": 3, "primary_start_timeout": 0, "postgresql": {"use_slots": false}}'
node_config() {
  local n=$1 pp rp; pp=$(pg_port "$n"); rp=$(rest_port "$n")
  cat <<YAML
scope: platform-ha
name: $n
restapi:
  listen: 127.0.0.1:$rp
  connect_address: 127.0.0.1:$rp
etcd3:
  hosts: 127.0.0.1:$ETCD_PORT
bootstrap:
  dcs:
    ttl: 8
    loop_wait: 1
    retry_timeout: 3
    primary_start_timeout: 0
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true
    synchronous_node_count: 1
    postgresql:
      use_pg_rewind: true
      use_slots: false
      parameters:
        max_connections: 300
        shared_buffers: 128MB
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: 'on'
        track_commit_timestamp: 'on'
        shared_preload_libraries: pg_stat_statements
        # a replica asks its primary again every second (default 5 s)
        wal_retrieve_retry_interval: 1s
  initdb:
    - encoding: UTF8
    - data-checksums
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
postgresql:
  listen: 127.0.0.1:$pp
  connect_address: 127.0.0.1:$pp
  data_dir: $HA_DIR/$n/data
  bin_dir: $PGBIN
  pgpass: $HA_DIR/$n/pgpass
  remove_data_directory_on_rewind_failure: true
  authentication:
    superuser:
      username: postgres
      password: $SUPERUSER_PASSWORD
    replication:
      username: replicator
      password: $REPLICATION_PASSWORD
  parameters:
    unix_socket_directories: $HA_DIR/$n
    logging_collector: 'off'
    log_line_prefix: '%m [%p] '
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
YAML
}

for n in "${NODES[@]}"; do
  mkdir -p "$HA_DIR/$n"; chown postgres: "$HA_DIR/$n"; chmod 700 "$HA_DIR/$n"
  node_config "$n" > "$HA_DIR/$n/patroni.yml"; chown postgres: "$HA_DIR/$n/patroni.yml"; chmod 600 "$HA_DIR/$n/patroni.yml"
  if ! alive "$HA_DIR/$n/patroni.pid"; then
    start_bg "$HA_DIR/$n/patroni.pid" "$HA_DIR/$n/patroni.log" postgres patroni "$HA_DIR/$n/patroni.yml"
  fi
  # the first node bootstraps the cluster: the others clone it once it is the leader
  if [ "$n" = node1 ] && [ ! -f "$HA_DIR/bootstrapped" ]; then
    wait_http "http://127.0.0.1:$(rest_port node1)/primary" 120 || { echo "node1 did not bootstrap (see $HA_DIR/node1/patroni.log)" >&2; exit 1; }
    touch "$HA_DIR/bootstrapped"
  fi
done

# ---------------------------------------------------------------- HAProxy: the read-write endpoint
# Patroni's HAProxy template (haproxy.cfg in its repository) and its REST API's health checks: OPTIONS /primary
# answers 200 only on the node that holds the leader lock and runs as primary; on-marked-down shutdown-sessions
# closes every connection to a node that stops being the primary, so pools never keep writing to a demoted node.
# Check timing (HAProxy's configuration manual, "inter"/"fastinter"/"downinter", "rise"/"fall"; the template has
# inter 3s fall 3 rise 2): the leader is checked every second (inter 1s); a failed check is confirmed 0.5 s later
# (fastinter, fall 2); the replicas, DOWN for this endpoint, are checked every 0.5 s (downinter) and one 200 puts a
# new leader UP (rise 1: /primary says 200 only on the node that holds the leader key, so one answer is enough).
# A new primary thus takes traffic within 0.5 s of its promotion, a dead one is out within 1.5 s (a killed Postgres
# closes its connections at once anyway). With no server UP, HAProxy closes a new connection at once: the services
# answer 503 with Retry-After meanwhile, without waiting.
{
  cat <<CFG
global
    maxconn 2000

defaults
    log global
    mode tcp
    retries 2
    timeout client 30m
    timeout connect 4s
    timeout server 30m
    timeout check 5s

listen stats
    mode http
    bind 127.0.0.1:$STATS_PORT
    stats enable
    stats uri /

listen primary
    bind 127.0.0.1:$RW_PORT
    option httpchk OPTIONS /primary
    http-check expect status 200
    default-server inter 1s fastinter 500ms downinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
CFG
  for n in "${NODES[@]}"; do
    echo "    server $n 127.0.0.1:$(pg_port "$n") maxconn 600 check port $(rest_port "$n")"
  done
} > "$HA_DIR/haproxy.cfg.new"
haproxy -c -q -f "$HA_DIR/haproxy.cfg.new"
# a running HAProxy with an older configuration (this script changed) is restarted with the new one
if alive "$HA_DIR/haproxy.pid" && ! cmp -s "$HA_DIR/haproxy.cfg.new" "$HA_DIR/haproxy.cfg"; then
  echo "HAProxy's configuration changed: restarting it" >&2
  kill "$(cat "$HA_DIR/haproxy.pid")"; sleep 0.5
fi
mv "$HA_DIR/haproxy.cfg.new" "$HA_DIR/haproxy.cfg"
if ! alive "$HA_DIR/haproxy.pid"; then
  start_bg "$HA_DIR/haproxy.pid" "$HA_DIR/haproxy.log" root haproxy -db -f "$HA_DIR/haproxy.cfg"
fi

# ---------------------------------------------------------------- ready: a primary behind HAProxy, two replicas streaming
# HAProxy counts a server up until its first checks fail: wait until exactly one is up and three connections in a row
# reach a primary (a replica answers a SELECT too)
export PGPASSWORD=$SUPERUSER_PASSWORD
rw_ok() { [ "$("$PGBIN/psql" -X -q -h 127.0.0.1 -p "$RW_PORT" -U postgres -d postgres -tAc "SELECT pg_is_in_recovery()" 2>/dev/null)" = f ]; }
ok=0
for _ in $(seq 1 300); do
  # (|| true: HAProxy may not listen yet, and under set -e -o pipefail a failed curl would end the script here)
  up=$(curl -s "http://127.0.0.1:$STATS_PORT/;csv" | awk -F, '$1 == "primary" && $2 ~ /^node/ && $18 == "UP"' | wc -l) || true
  if [ "$up" = 1 ] && rw_ok; then ok=$((ok + 1)); else ok=0; fi
  [ "$ok" -ge 3 ] && break
  sleep 0.2
done
[ "$ok" -ge 3 ] || { echo "no primary behind HAProxy on $RW_PORT (see $HA_DIR/*/patroni.log)" >&2; exit 1; }
if [ "$("$PGBIN/psql" -X -h 127.0.0.1 -p "$RW_PORT" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'platform'")" != 1 ]; then
  "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$RW_PORT" -U postgres -d postgres -c "CREATE DATABASE platform"
fi
"$PGBIN/psql" -X -q -h 127.0.0.1 -p "$RW_PORT" -U postgres -d platform -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
for _ in $(seq 1 600); do
  streaming=$("$PGBIN/psql" -X -h 127.0.0.1 -p "$RW_PORT" -U postgres -d postgres -tAc \
    "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'") || streaming=0
  [ "$streaming" -ge 2 ] && break
  sleep 0.2
done
[ "${streaming:-0}" -ge 2 ] || echo "warning: only ${streaming:-0} replica(s) streaming so far (see patronictl list)" >&2

# bootstrap.dcs counts only when the cluster is created: the same values go to an existing cluster's configuration
# (Patroni's REST API, PATCH /config on any node), so running up.sh again after an upgrade of this script applies them
curl -fsS -o /dev/null -X PATCH -H 'Content-Type: application/json' -d "$DCS_PATCH" "http://127.0.0.1:$(rest_port node1)/config" \
  || echo "warning: could not apply $DCS_PATCH with PATCH /config" >&2

umask 077
cat > "$HA_DIR/env" <<ENV
DB_REACTIVE_URL=postgresql://127.0.0.1:$RW_PORT/platform
DB_JDBC_URL=jdbc:postgresql://127.0.0.1:$RW_PORT/platform
DB_USER=postgres
DB_PASSWORD=$SUPERUSER_PASSWORD
HA_PATRONI_CONFIG=$HA_DIR/node1/patroni.yml
HA_REST="$(for n in "${NODES[@]}"; do printf '%s=http://127.0.0.1:%s ' "$n" "$(rest_port "$n")"; done | sed 's/ $//')"
HA_HAPROXY_STATS=http://127.0.0.1:$STATS_PORT/
ENV
umask 022
patronictl -c "$HA_DIR/node1/patroni.yml" list >&2 || true
cat "$HA_DIR/env"
