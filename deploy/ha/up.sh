#!/usr/bin/env bash
# Replicated Postgres on this machine, one command: three PostgreSQL 15 nodes managed by Patroni over etcd, synchronous
# replication, and one read-write endpoint (HAProxy, routed by Patroni's REST health check) that the services use
# through their usual DB_* settings. Everything listens on 127.0.0.1; everything lives under $HA_DIR.
#
#   deploy/ha/up.sh      as root; apt-installs patroni, etcd-server, etcd-client, haproxy and pgbackrest when missing
#                        (postgresql-15 too)
#   deploy/ha/backup.sh  a pgBackRest backup now (incremental when a full one exists)
#   deploy/ha/restore.sh --to '<UTC time>' | --latest   point-in-time restore of the whole cluster
#   deploy/ha/check.sh   shows that every door refuses a caller without credentials
#   deploy/ha/down.sh    stops everything and removes $HA_DIR
#
# Running up.sh again starts only what is not running: after a node was killed, it restarts that node's Patroni,
# which rewinds the old primary (pg_rewind) and brings it back as a replica.
#
# Backups: continuous WAL archiving (archive_command: pgBackRest archive-push) and base backups into a pgBackRest
# repository, by default a posix one in $HA_DIR/backup (HA_BACKUP_REPO=<file of repo1-* lines> puts it elsewhere, e.g.
# S3: see README); up.sh creates the stanza, runs `pgbackrest check` and takes the first full backup.
# Credentials (generated once, $HA_DIR/secrets, mode 600, root): no `trust` line anywhere (initdb --auth=scram-sha-256
# with a password file; every pg_hba line scram-sha-256, replication included); Patroni's REST API asks for a
# password on every unsafe method; etcd has auth enabled (Patroni logs in as its own user); HAProxy's stats page
# listens on 127.0.0.1 only, behind a password. The services connect as platform_app, the owner of database platform
# (they create their schemas there), not a superuser.
# Environment: HA_DIR (/var/lib/platform-ha), HA_PORT_BASE (15400): etcd +0/+1, Postgres +11..+13, Patroni REST
# +21..+23, HAProxy read-write +30, HAProxy stats +31.
# Prints no password: the DB_REACTIVE_URL, DB_JDBC_URL, DB_USER, DB_PASSWORD lines go to $HA_DIR/env (mode 600) and
# the script prints HA_ENV=$HA_DIR/env beside the addresses.
set -euo pipefail

HA_DIR=${HA_DIR:-/var/lib/platform-ha}
# shellcheck source=deploy/ha/lib.sh
. "$(dirname "$0")/lib.sh"
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
command -v etcdctl >/dev/null || missing+=(etcd-client)
command -v haproxy >/dev/null || missing+=(haproxy)
command -v pgbackrest >/dev/null || missing+=(pgbackrest)
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
# (a secrets file of an older up.sh gets the passwords it lacks)
umask 077
touch "$HA_DIR/secrets"
for k in SUPERUSER_PASSWORD REPLICATION_PASSWORD REST_PASSWORD ETCD_ROOT_PASSWORD ETCD_PATRONI_PASSWORD STATS_PASSWORD APP_PASSWORD; do
  grep -q "^$k=" "$HA_DIR/secrets" || echo "$k=$(openssl rand -hex 16)" >> "$HA_DIR/secrets"
done
umask 022
chmod 600 "$HA_DIR/secrets"
# shellcheck disable=SC1091
. "$HA_DIR/secrets"

# ---------------------------------------------------------------- etcd (the DCS holding Patroni's leader lock)
mkdir -p "$HA_DIR/etcd"; chown postgres: "$HA_DIR/etcd"; chmod 700 "$HA_DIR/etcd"
if ! alive "$HA_DIR/etcd.pid"; then
  start_bg "$HA_DIR/etcd.pid" "$HA_DIR/etcd.log" postgres etcd --name etcd1 --data-dir "$HA_DIR/etcd/data" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
    --initial-cluster "etcd1=http://127.0.0.1:$ETCD_PEER" --initial-cluster-state new
  wait_http "http://127.0.0.1:$ETCD_PORT/version" 30 || { echo "etcd did not start (see $HA_DIR/etcd.log)" >&2; exit 1; }
fi
# etcd's authentication ("Role-based access control" in etcd's documentation): a root user, and a user patroni whose
# role may read and write Patroni's keys (/service/) only; once auth is enabled etcd refuses a request without them
etcdctl_root() { ETCDCTL_API=3 etcdctl --endpoints="127.0.0.1:$ETCD_PORT" --user "root:$ETCD_ROOT_PASSWORD" "$@"; }
if [ ! -f "$HA_DIR/etcd-auth" ]; then
  e=(env ETCDCTL_API=3 etcdctl --endpoints="127.0.0.1:$ETCD_PORT")
  "${e[@]}" user add "root:$ETCD_ROOT_PASSWORD" --interactive=false >/dev/null
  "${e[@]}" user add "patroni:$ETCD_PATRONI_PASSWORD" --interactive=false >/dev/null
  "${e[@]}" role add patroni >/dev/null
  "${e[@]}" role grant-permission patroni --prefix=true readwrite /service/ >/dev/null
  "${e[@]}" user grant-role patroni patroni >/dev/null
  "${e[@]}" auth enable >/dev/null
  touch "$HA_DIR/etcd-auth"
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
  # Patroni's "REST API" documentation: Basic-Auth for the unsafe methods (POST, PUT, PATCH, DELETE); the health checks
  # HAProxy sends (OPTIONS /primary) stay open; patronictl reads these credentials from this file
  authentication:
    username: patroni
    password: $REST_PASSWORD
etcd3:
  hosts: 127.0.0.1:$ETCD_PORT
  username: patroni
  password: $ETCD_PATRONI_PASSWORD
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
        # continuous archiving (PostgreSQL's "Continuous Archiving and Point-in-Time Recovery"; pgBackRest's user
        # guide, "Configure Archiving"): archive_command is each node's own (postgresql.parameters below).
        # archive_timeout 30s: a quiet primary still closes its WAL segment every 30 s, so losing every volume at
        # once loses at most the last ~30 s (plus the push) even when the load is too light to fill a 16 MB segment;
        # a switched segment compresses to almost nothing, so 2,880 a day cost little
        archive_mode: 'on'
        archive_timeout: 30s
  # initdb's own pg_hba.conf has no trust line (--auth=scram-sha-256; Patroni hands initdb the superuser password
  # through --pwfile), and Patroni writes pg_hba.conf from postgresql.pg_hba below anyway
  initdb:
    - encoding: UTF8
    - data-checksums
    - auth: scram-sha-256
postgresql:
  listen: 127.0.0.1:$pp
  connect_address: 127.0.0.1:$pp
  data_dir: $HA_DIR/$n/data
  bin_dir: $PGBIN
  pgpass: $HA_DIR/$n/pgpass
  remove_data_directory_on_rewind_failure: true
  # the whole pg_hba.conf (Patroni rewrites it from this list): SCRAM for every connection, the socket included
  pg_hba:
    - local all all scram-sha-256
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
  # a new replica is restored from the pgBackRest repository and catches up from the archive, or (no backup yet)
  # copied from the primary (Patroni's "Replica imaging and bootstrap"; pgBackRest's user guide, "Delta Option")
  create_replica_methods:
    - pgbackrest
    - basebackup
  pgbackrest:
    command: pgbackrest --config=$HA_DIR/$n/pgbackrest.conf --stanza=platform --delta restore
    keep_data: true
    no_params: true
  basebackup:
    checkpoint: fast
  recovery_conf:
    restore_command: pgbackrest --config=$HA_DIR/$n/pgbackrest.conf --stanza=platform archive-get %f "%p"
  authentication:
    superuser:
      username: postgres
      password: $SUPERUSER_PASSWORD
    replication:
      username: replicator
      password: $REPLICATION_PASSWORD
  parameters:
    unix_socket_directories: $HA_DIR/$n
    archive_command: pgbackrest --config=$HA_DIR/$n/pgbackrest.conf --stanza=platform archive-push %p
    logging_collector: 'off'
    log_line_prefix: '%m [%p] '
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
YAML
}

# ---------------------------------------------------------------- pgBackRest (pgBackRest's user guide)
# One stanza, platform. $HA_DIR/pgbackrest/pgbackrest.conf knows the three nodes (backup, check and stanza-create find
# the primary among them); each node's own $HA_DIR/<node>/pgbackrest.conf knows only that node (archive-push,
# archive-get and restore). The repository: HA_BACKUP_REPO=<file> gives its repo1-* lines (S3: README), else a
# posix repository in $HA_DIR/backup. repo1-retention-full 2: two full backups and what they need are kept, older
# ones and their WAL are expired after each backup. start-fast: the backup asks for an immediate checkpoint.
mkdir -p "$PGBR/log" "$PGBR/lock" "$PGBR/spool" "$HA_DIR/backup"
chown -R postgres: "$PGBR" "$HA_DIR/backup"; chmod 700 "$PGBR" "$HA_DIR/backup"
pgbr_global() {
  echo "[global]"
  if [ -n "${HA_BACKUP_REPO:-}" ]; then cat "$HA_BACKUP_REPO"; else echo "repo1-path=$HA_DIR/backup"; fi
  cat <<CONF
repo1-retention-full=2
start-fast=y
compress-type=lz4
log-path=$PGBR/log
lock-path=$PGBR/lock
spool-path=$PGBR/spool
log-level-console=warn
log-level-file=info

[platform]
CONF
}
umask 077
{ pgbr_global; i=1; for n in "${NODES[@]}"; do
    printf 'pg%s-path=%s\npg%s-port=%s\npg%s-socket-path=%s\n' "$i" "$HA_DIR/$n/data" "$i" "$(pg_port "$n")" "$i" "$HA_DIR/$n"; i=$((i + 1))
  done; } > "$PGBR/pgbackrest.conf"
# pgBackRest reaches Postgres over its socket as postgres: the password from a pgpass file (libpq's)
echo "*:*:*:postgres:$SUPERUSER_PASSWORD" > "$PGBR/pgpass"
for n in "${NODES[@]}"; do
  mkdir -p "$HA_DIR/$n"
  { pgbr_global; printf 'pg1-path=%s\npg1-port=%s\npg1-socket-path=%s\n' "$HA_DIR/$n/data" "$(pg_port "$n")" "$HA_DIR/$n"; } > "$HA_DIR/$n/pgbackrest.conf"
  chown postgres: "$HA_DIR/$n/pgbackrest.conf"
done
umask 022
chown postgres: "$PGBR/pgbackrest.conf" "$PGBR/pgpass"

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
    stats auth admin:$STATS_PASSWORD

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
chmod 600 "$HA_DIR/haproxy.cfg.new"
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
  up=$(curl -s -u "admin:$STATS_PASSWORD" "http://127.0.0.1:$STATS_PORT/;csv" | awk -F, '$1 == "primary" && $2 ~ /^node/ && $18 == "UP"' | wc -l) || true
  if [ "$up" = 1 ] && rw_ok; then ok=$((ok + 1)); else ok=0; fi
  [ "$ok" -ge 3 ] && break
  sleep 0.2
done
[ "$ok" -ge 3 ] || { echo "no primary behind HAProxy on $RW_PORT (see $HA_DIR/*/patroni.log)" >&2; exit 1; }
# the services' role: not a superuser; it owns database platform, where each service creates its schema (Flyway).
# The password goes through psql's standard input, never a command line
su_psql() { "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$RW_PORT" -U postgres -v ON_ERROR_STOP=1 "$@"; }
if [ "$(su_psql -d postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'platform_app'")" != 1 ]; then
  echo "CREATE ROLE platform_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$APP_PASSWORD'" | su_psql -d postgres
fi
if [ "$(su_psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'platform'")" != 1 ]; then
  su_psql -d postgres -c "CREATE DATABASE platform OWNER platform_app"
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
curl -fsS -o /dev/null -u "patroni:$REST_PASSWORD" -X PATCH -H 'Content-Type: application/json' -d "$DCS_PATCH" "http://127.0.0.1:$(rest_port node1)/config" \
  || echo "warning: could not apply $DCS_PATCH with PATCH /config" >&2

# archive_mode needs a restart: a cluster made by an older up.sh (archiving off) restarts its nodes once (a rolling
# restart through Patroni, the replicas first)
if [ "$(su_psql -d postgres -tAc "SHOW archive_mode")" != on ]; then
  sleep 3
  patronictl -c "$HA_DIR/node1/patroni.yml" restart platform-ha --pending --force >&2 || true
  for _ in $(seq 1 150); do [ "$(su_psql -d postgres -tAc "SHOW archive_mode" 2>/dev/null)" = on ] && break; sleep 0.4; done
fi

# ---------------------------------------------------------------- the archive: stanza, check, first full backup
# (pgBackRest's user guide: "Create the Stanza", "Check the Configuration", "Perform a Backup"); stanza-create is
# idempotent; check forces a WAL switch and waits until that segment is in the repository
pgbackrest_all stanza-create >&2
pgbackrest_all check >&2 || { echo "pgbackrest check failed: WAL archiving does not work (see $PGBR/log)" >&2; exit 1; }
if ! pgbackrest_all info --output=json | python3 -c 'import json,sys; sys.exit(0 if any(s.get("backup") for s in json.load(sys.stdin)) else 1)'; then
  echo "first full backup (pgbackrest --type=full backup)" >&2
  pgbackrest_all --type=full backup >&2
fi

umask 077
cat > "$HA_DIR/env" <<ENV
DB_REACTIVE_URL=postgresql://127.0.0.1:$RW_PORT/platform
DB_JDBC_URL=jdbc:postgresql://127.0.0.1:$RW_PORT/platform
DB_USER=platform_app
DB_PASSWORD=$APP_PASSWORD
HA_PATRONI_CONFIG=$HA_DIR/node1/patroni.yml
HA_REST="$(for n in "${NODES[@]}"; do printf '%s=http://127.0.0.1:%s ' "$n" "$(rest_port "$n")"; done | sed 's/ $//')"
HA_HAPROXY_STATS=http://127.0.0.1:$STATS_PORT/
HA_BACKUP_REPO=${HA_BACKUP_REPO:-$HA_DIR/backup}
ENV
umask 022
patronictl -c "$HA_DIR/node1/patroni.yml" list >&2 || true
echo "HA_ENV=$HA_DIR/env"
grep -v '^DB_PASSWORD=' "$HA_DIR/env"
