#!/usr/bin/env bash
# Point-in-time restore of deploy/ha's whole cluster from its pgBackRest repository (pgBackRest's user guide,
# "Point-in-Time Recovery"; PostgreSQL's "Recovering Using a Continuous Archive Backup"):
#
#   deploy/ha/restore.sh --to '2026-11-28 06:50:00'      (UTC; also 2026-11-28T06:50:00.123Z or ...+00)
#   deploy/ha/restore.sh --latest                        (to the end of the archive)
#
# Checks everything first and changes nothing when the time is malformed, in the future, before the first backup,
# or when there is no backup at all; while the cluster runs it also forces the current WAL into the archive
# (pgbackrest check), so the archive reaches the target. Then: stops the three Patroni nodes (HAProxy and etcd stay:
# the services keep their one address and answer 503 meanwhile), forgets the cluster in etcd, restores node1 with
# `pgbackrest --delta --type=time --target=<time> --target-action=promote restore`, lets its Postgres replay the
# archive to the target and promote (outside Patroni, no client can connect), starts node1's Patroni on that data
# (a new cluster from an existing data directory), then up.sh starts node2 and node3 with empty data directories
# (Patroni rebuilds them: pgBackRest restore, else pg_basebackup) and prints what up.sh prints (HA_ENV=...).
set -euo pipefail
HA_DIR=${HA_DIR:-/var/lib/platform-ha}
BASE=${HA_PORT_BASE:-15400}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=deploy/ha/lib.sh
. "$HERE/lib.sh"
NODES=(node1 node2 node3)
die() { echo "restore.sh: $*; nothing was changed" >&2; exit 2; }

[ "$(id -u)" = 0 ] || die "run as root"
target=""; mode=""
case "${1:-}" in
  --to) [ $# = 2 ] || die "usage: restore.sh --to '<UTC time, e.g. 2026-11-28 06:50:00>' | --latest"; mode=time; target=$2 ;;
  --latest) [ $# = 1 ] || die "usage: restore.sh --to '<UTC time>' | --latest"; mode=latest ;;
  *) die "usage: restore.sh --to '<UTC time, e.g. 2026-11-28 06:50:00>' | --latest" ;;
esac
[ -f "$PGBR/pgbackrest.conf" ] && [ -f "$HA_DIR/secrets" ] || die "no cluster under $HA_DIR (deploy/ha/up.sh first)"
# shellcheck disable=SC1091
. "$HA_DIR/secrets"

# ---------------------------------------------------------------- validation: nothing is touched before it passes
if [ "$mode" = time ]; then
  # UTC only: a time without zone, or with Z / +00 / +00:00 / UTC
  re='^([0-9]{4}-[0-9]{2}-[0-9]{2})[ T]([0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?)( ?(Z|UTC|\+00(:?00)?))?$'
  [[ $target =~ $re ]] || die "malformed time '$target': give a UTC time like '2026-11-28 06:50:00' (fraction and Z/+00 optional)"
  ts="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
  epoch=$(date -u -d "$ts UTC" +%s.%N 2>/dev/null) || die "malformed time '$target': not a valid date"
  [ "$(date -u -d "@${epoch%.*}" +%Y-%m-%d)" = "${BASH_REMATCH[1]}" ] || die "malformed time '$target': not a valid date"
  now=$(date -u +%s.%N)
  python3 -c "import sys; sys.exit(0 if $epoch <= $now else 1)" || die "$ts UTC is in the future (now $(date -u '+%F %T') UTC)"
fi
info=$(pgbackrest_all info --output=json 2>/dev/null) || die "cannot read the pgBackRest repository (see $PGBR/log)"
first_stop=$(echo "$info" | python3 -c '
import json, sys
b = [x for s in json.load(sys.stdin) for x in s.get("backup", [])]
print(min(x["timestamp"]["stop"] for x in b) if b else "")')
[ -n "$first_stop" ] || die "no backup in the repository (deploy/ha/backup.sh takes one)"
if [ "$mode" = time ]; then
  python3 -c "import sys; sys.exit(0 if $epoch >= $first_stop else 1)" \
    || die "$ts UTC is before the end of the first backup ($(date -u -d "@$first_stop" '+%F %T') UTC): nothing to restore it from"
fi
# a running cluster pushes its current WAL segment first: the archive then reaches now (and the target)
if curl -fs -o /dev/null -m 3 "http://127.0.0.1:$((BASE + 21))/health" || curl -fs -o /dev/null -m 3 "http://127.0.0.1:$((BASE + 22))/health" \
   || curl -fs -o /dev/null -m 3 "http://127.0.0.1:$((BASE + 23))/health"; then
  pgbackrest_all check >&2 || die "pgbackrest check failed: the archive may not reach the target (see $PGBR/log)"
else
  echo "restore.sh: the cluster is not running: restoring from what the archive holds" >&2
fi
t0=$(date +%s%N)

# ---------------------------------------------------------------- stop the cluster (HAProxy and etcd stay)
echo "restore.sh: stopping the three nodes" >&2
stop_nodes 60
# the old cluster's keys (leader, members, initialize, config) go: node1's Patroni makes a new one from its data
ETCDCTL_API=3 etcdctl --endpoints="127.0.0.1:$BASE" --user "root:$ETCD_ROOT_PASSWORD" del --prefix /service/platform-ha/ >/dev/null

# ---------------------------------------------------------------- restore node1 and recover it to the target
if [ "$mode" = time ]; then
  args=(--type=time "--target=$ts+00" --target-action=promote)
  echo "restore.sh: restoring node1 to $ts UTC" >&2
else
  args=(--type=default)
  echo "restore.sh: restoring node1 to the end of the archive" >&2
fi
mkdir -p "$HA_DIR/node1/data"; chown postgres: "$HA_DIR/node1/data"; chmod 700 "$HA_DIR/node1/data"
runuser -u postgres -- pgbackrest --config="$HA_DIR/node1/pgbackrest.conf" --stanza=platform --delta "${args[@]}" restore >&2
# replay outside Patroni: no TCP listener (listen_addresses ''), only the node's socket; promote at the target
rm -f "$HA_DIR/node1/recovery.log"
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$HA_DIR/node1/data" -l "$HA_DIR/node1/recovery.log" -w -t 3600 \
  -o "-c listen_addresses='' -c archive_mode=on" start >&2 || { echo "restore.sh: recovery did not start (see $HA_DIR/node1/recovery.log)" >&2; exit 1; }
for _ in $(seq 1 36000); do
  [ -f "$HA_DIR/node1/data/recovery.signal" ] || break
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$HA_DIR/node1/data" status >/dev/null || { echo "restore.sh: recovery stopped (see $HA_DIR/node1/recovery.log)" >&2; tail -5 "$HA_DIR/node1/recovery.log" >&2; exit 1; }
  sleep 0.1
done
grep -E 'recovery stopping|archive recovery complete|selected new timeline' "$HA_DIR/node1/recovery.log" >&2 || true
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$HA_DIR/node1/data" -m fast -w stop >&2
# pgBackRest's recovery settings go: Patroni writes its own (postgresql.auto.conf would override them)
sed -i -E '/^(restore_command|recovery_target|recovery_target_time|recovery_target_action|recovery_target_timeline) *=/d' "$HA_DIR/node1/data/postgresql.auto.conf"

# ---------------------------------------------------------------- Patroni again, same endpoint
for n in node2 node3; do rm -rf "$HA_DIR/$n/data"; done
touch "$HA_DIR/bootstrapped"
rm -f "$HA_DIR/node1/patroni.pid"
HOME=$(getent passwd postgres | cut -d: -f6) setsid setpriv --reuid postgres --regid postgres --init-groups \
  patroni "$HA_DIR/node1/patroni.yml" >>"$HA_DIR/node1/patroni.log" 2>&1 < /dev/null &
echo $! > "$HA_DIR/node1/patroni.pid"
for _ in $(seq 1 600); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((BASE + 21))/primary")" = 200 ] && break; sleep 0.2
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((BASE + 21))/primary")" = 200 ] \
  || { echo "restore.sh: node1 did not become the leader (see $HA_DIR/node1/patroni.log)" >&2; exit 1; }
echo "restore.sh: node1 leads again after $(( ($(date +%s%N) - t0) / 1000000 )) ms; node2 and node3 are rebuilt" >&2
"$HERE/up.sh"
echo "HA_RESTORE_MS=$(( ($(date +%s%N) - t0) / 1000000 ))"
