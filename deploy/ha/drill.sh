#!/usr/bin/env bash
# The restore drill, measured: an operator's accident undone by a point-in-time restore while the three services serve.
# Makes its own cluster (deploy/ha/up.sh under $HA_DIR, which must not exist yet) and removes it at the end (down.sh):
# it drops a schema, so it never runs on a cluster that holds anything else.
#   1. the three services (their fast-jars) on the cluster's HAProxy endpoint, under steady load (deploy/lib/
#      service-load.sh and deploy/upgrade-check/UpgradeLoad.java, as deploy/upgrade-check.sh drives them): creations,
#      state changes, refunds/withdrawals, reads, a feed follower; webhooks to local receivers;
#   2. a backup (backup.sh), more load (--rotate-key: the encryption key is rotated after the backup, the services
#      restart with the new key and the old one in PLATFORM_ENCRYPTION_OLD_KEYS); the receivers go down for the last
#      seconds so that deliveries are pending at T; the load pauses, its last acknowledged write is noted, then T;
#   3. the load goes on past T; the accident: DROP SCHEMA wallet CASCADE, and a DELETE of checkout's payment intents;
#   4. restore.sh --to T, the load still running and the receivers up again; the services are not restarted unless
#      one serves no creation 60 s after the restore ended (then it is, and the report says so).
# Prints: writes acknowledged before T and missing after the restore (each looked up through the service's API by
# id; must be 0) and acknowledged creations without their event; writes acknowledged after T (expected gone);
# seconds from the restore command to each service's first acknowledged creation; whether a service was restarted;
# the archive's lag under load (what losing every volume would cost); the deliveries pending at T and whether they
# arrived, events delivered more than once; the feed follower's missed events; load average.
#   --rotate-key   rotate PLATFORM_ENCRYPTION_KEY after the backup
#   --keep         leave the cluster running (no down.sh); the logs always stay
# Environment: HA_DIR (/var/tmp/platform-drill/ha), HA_PORT_BASE (18400; the services on +41..+43, receivers +61..+69),
# DRILL_APPS (a directory of <module>/quarkus-app; default each module's target/quarkus-app), LOAD1 / LOAD2 / AFTER_T /
# AFTER_RESTORE (seconds of each phase), CREATE_RATE, READ_RATE, ADVANCE_RATE, MONEY_RATE (per second and service).
# Run as root (up.sh); logs in $DRILL_DIR/run-<time>.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
HERE=$root/deploy/ha

rotate=0; keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --rotate-key) rotate=1 ;;
    --keep) keep=1 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" = 0 ] || { echo "run as root (deploy/ha/up.sh)" >&2; exit 2; }

DRILL_DIR=${DRILL_DIR:-/var/tmp/platform-drill}
export HA_DIR=${HA_DIR:-$DRILL_DIR/ha}
export HA_PORT_BASE=${HA_PORT_BASE:-18400}
BASE=$HA_PORT_BASE
[ ! -e "$HA_DIR" ] || { echo "$HA_DIR exists: the drill drops a schema, it makes its own cluster (deploy/ha/down.sh first)" >&2; exit 2; }
LOAD1=${LOAD1:-20} LOAD2=${LOAD2:-15} AFTER_T=${AFTER_T:-5} AFTER_RESTORE=${AFTER_RESTORE:-20}
export CREATE_RATE=${CREATE_RATE:-3} READ_RATE=${READ_RATE:-2} ADVANCE_RATE=${ADVANCE_RATE:-1} MONEY_RATE=${MONEY_RATE:-0.5}
RECEIVERS_DOWN=${RECEIVERS_DOWN:-5}     # seconds before T without receivers: deliveries pending at T
RECONNECT_WAIT=${RECONNECT_WAIT:-60}    # seconds after the restore for a service to serve again by itself
DELIVERY_WAIT=${DELIVERY_WAIT:-150}     # the first retry comes 1 min after a failed attempt (retry schedules)
READY_TIMEOUT=${READY_TIMEOUT:-240}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

run="$DRILL_DIR/run-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$run"; chmod 711 "$DRILL_DIR"; chmod 700 "$run"   # (postgres passes through to $HA_DIR)
tools="$run/tools"

say() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*"; }
now_ms() { date +%s%3N; }
utc_ms() { date -u -d "@$(( $1 / 1000 )).$(printf %03d $(( $1 % 1000 )))" '+%F %T.%3N'; }
secs_between() { printf '%d.%d' $(( ($2 - $1) / 1000 )) $(( ($2 - $1) % 1000 / 100 )); }
# shellcheck source=deploy/lib/service-load.sh
. deploy/lib/service-load.sh

# --- what the drill started: stopped by pid at the end; the cluster by down.sh ---
declare -A SVC_PID=() RECV_PID=() LOAD_PID=()
sampler_pid=""
cleanup() {
  local pid
  for pid in "${LOAD_PID[@]}" "${SVC_PID[@]}" "${RECV_PID[@]}" $sampler_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in "${LOAD_PID[@]}" "${SVC_PID[@]}" "${RECV_PID[@]}" $sampler_pid; do wait "$pid" 2>/dev/null || true; done
  if [ "$keep" = 0 ]; then "$HERE/down.sh" > "$run/down.log" 2>&1 || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the cluster ---
say "cluster: deploy/ha/up.sh (HA_DIR=$HA_DIR, ports $BASE-$((BASE + 31)))"
t=$(now_ms)
"$HERE/up.sh" > "$run/up.out" 2> "$run/up.log" || { say "up.sh failed: $run/up.log"; tail -5 "$run/up.log"; exit 1; }
say "cluster up in $(secs_between "$t" "$(now_ms)") s (first full backup included)"
HA_ENV=$(sed -n 's/^HA_ENV=//p' "$run/up.out")
# shellcheck disable=SC1090
. "$HA_ENV"
# shellcheck disable=SC1091
SUPERUSER_PASSWORD=$(sed -n 's/^SUPERUSER_PASSWORD=//p' "$HA_DIR/secrets")
RW_PORT=$((BASE + 30))
# the operator's psql: superuser, through the endpoint the services use
su_sql() { PGPASSWORD=$SUPERUSER_PASSWORD PGOPTIONS='-c client_min_messages=warning' "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$RW_PORT" \
  -U postgres -d platform -v ON_ERROR_STOP=1 -tA -F $'\t' -c "$1"; }

# --- keys: kept apart from the cluster and its backups (here: the run directory, mode 600) ---
new_key() { head -c 32 /dev/urandom | base64; }
export ADMIN_TOKEN="drill-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
KEY=$(new_key); OLD_KEYS=""
KYC_PROOF_SIGNING_KEY=$(java deploy/local/Ed25519Key.java); export KYC_PROOF_SIGNING_KEY
( umask 077; printf 'PLATFORM_ENCRYPTION_KEY=%s\n' "$KEY" > "$run/keys" )

mkdir -p "$tools"
javac -d "$tools" deploy/upgrade-check/UpgradeLoad.java benchmarks/tools/Receiver.java

MODULES=(kyc-service checkout-service wallet-gateway)
declare -A MOD=() PORT=() RECV_PORTS=() DIR=() PUSH_OWNER_OF=() PULL_OWNER_OF=() PUSH_KEY_OF=()
for m in "${MODULES[@]}"; do
  service_requests "$m"
  MOD[$s]=$m; PORT[$s]=$((BASE + 40 + i)); DIR[$s]="$run/$s"; mkdir -p "$run/$s"
  RECV_PORTS[$s]=$((BASE + 59 + 2 * i))            # each receiver also holds its port + 1
  [ "$s" = wallet ] && RECV_PORTS[$s]="${RECV_PORTS[$s]} $((BASE + 67))"
done
SVCS=(kyc checkout wallet)
app_of() { echo "${DRILL_APPS:-$root}/$1$([ -n "${DRILL_APPS:-}" ] || echo /target)/quarkus-app"; }

start_service() { # s
  local s=$1 log="${DIR[$1]}/service.log"
  echo "--- start $(date -u +%T.%3N) key ${KEY:0:6}… old keys: $([ -n "$OLD_KEYS" ] && echo yes || echo none)" >> "$log"
  env QUARKUS_HTTP_PORT="${PORT[$s]}" PUBLIC_BASE_URL="http://127.0.0.1:${PORT[$s]}" \
    DB_REACTIVE_URL="$DB_REACTIVE_URL" DB_JDBC_URL="$DB_JDBC_URL" DB_USER="$DB_USER" DB_PASSWORD="$DB_PASSWORD" \
    DB_MIGRATE_AT_START=true WEBHOOKS_ALLOW_PRIVATE_TARGETS=true PLATFORM_DEMO_SECRETS=true \
    PLATFORM_ENCRYPTION_KEY="$KEY" ${OLD_KEYS:+PLATFORM_ENCRYPTION_OLD_KEYS="$OLD_KEYS"} \
    java -jar "$(app_of "${MOD[$s]}")/quarkus-run.jar" >> "$log" 2>&1 &
  SVC_PID[$s]=$!
}
stop_service() { # s
  local pid=${SVC_PID[$1]}
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
}
start_receivers() { # phase
  local s p
  for s in "${SVCS[@]}"; do for p in ${RECV_PORTS[$s]}; do
    java -cp "$tools" Receiver "$p" "${DIR[$s]}/recv-$p.$1.log" 1800 > "${DIR[$s]}/recv-$p.$1.out" 2>&1 &
    RECV_PID[$s.$p]=$!
  done; done
  for s in "${SVCS[@]}"; do for p in ${RECV_PORTS[$s]}; do until answers 127.0.0.1 "$p"; do sleep 0.1; done; done; done
}
stop_receivers() {
  local k
  for k in "${!RECV_PID[@]}"; do kill "${RECV_PID[$k]}" 2>/dev/null || true; done
  for k in "${!RECV_PID[@]}"; do wait "${RECV_PID[$k]}" 2>/dev/null || true; unset "RECV_PID[$k]"; done
}

# --- the archive's lag, sampled every second: seconds since the last segment reached the repository, and the WAL
# written since the end of that segment (what a loss of every volume would lose)
sample_archive() {
  while :; do
    su_sql "SELECT extract(epoch FROM now())::numeric(16,3), extract(epoch FROM now() - last_archived_time)::numeric(10,3),
              pg_current_wal_lsn() - '0/0'::pg_lsn - (('x' || substr(last_archived_wal, 9, 8))::bit(32)::bigint * 4294967296
                + ('x' || substr(last_archived_wal, 17, 8))::bit(32)::bigint * 16777216 + 16777216)
            FROM pg_stat_archiver" >> "$run/archive-lag.tsv" 2>/dev/null || true
    sleep 1
  done
}

# --- 1. services, owners, receivers, load ---
say "services: ${MODULES[*]} on ${PORT[kyc]}-${PORT[wallet]} (PLATFORM_DEMO_SECRETS=true), jars $(app_of kyc-service | sed 's|/kyc-service/.*||')"
start_receivers 1
t=$(now_ms)
for s in "${SVCS[@]}"; do start_service "$s"; done
for s in "${SVCS[@]}"; do wait_ready "${PORT[$s]}" "${SVC_PID[$s]}" || { say "$s did not turn ready: ${DIR[$s]}/service.log"; exit 1; }; done
say "services ready in $(secs_between "$t" "$(now_ms)") s"
for s in "${SVCS[@]}"; do
  service_requests "${MOD[$s]}"; dir=${DIR[$s]}
  read -r -a recv_ports <<< "${RECV_PORTS[$s]}"
  make_owners "${PORT[$s]}" || { say "$s: owners could not be made"; exit 1; }
  PUSH_OWNER_OF[$s]=$PUSH_OWNER; PULL_OWNER_OF[$s]=$PULL_OWNER; PUSH_KEY_OF[$s]=$PUSH_KEY
  echo "http://127.0.0.1:${PORT[$s]}" > "$dir/base"; rm -f "$dir/stop" "$dir/pause" "$dir/pause.quiet"
  { load_config; echo "pauseFile=$dir/pause"; echo "maxRequests=100000"; echo "feedDrainSeconds=15"; } > "$dir/load.properties"
  java -Xmx128m -cp "$tools" UpgradeLoad "$dir/load.properties" > "$dir/load.out" 2> "$dir/load.err" &
  LOAD_PID[$s]=$!
done
sample_archive & sampler_pid=$!
say "load: per service $CREATE_RATE creations, $ADVANCE_RATE state changes, $MONEY_RATE refunds/withdrawals, $READ_RATE reads /s, a feed follower; ${LOAD1} s"
sleep "$LOAD1"

# --- 2. a backup, more load (a key rotation), receivers down, the pause, T ---
t=$(now_ms)
"$HERE/backup.sh" > "$run/backup.out" 2> "$run/backup.log" || { say "backup.sh failed: $run/backup.log"; exit 1; }
backup_s=$(secs_between "$t" "$(now_ms)")
say "backup under load: $(grep BACKUP_LABEL "$run/backup.out") in $backup_s s"
rotated="no"
if [ "$rotate" = 1 ]; then
  OLD_KEYS=$KEY; KEY=$(new_key)
  ( umask 077; printf 'PLATFORM_ENCRYPTION_KEY=%s\nPLATFORM_ENCRYPTION_OLD_KEYS=%s\n' "$KEY" "$OLD_KEYS" > "$run/keys" )
  t=$(now_ms)
  for s in "${SVCS[@]}"; do stop_service "$s"; start_service "$s"; done
  for s in "${SVCS[@]}"; do wait_ready "${PORT[$s]}" "${SVC_PID[$s]}" || { say "$s did not turn ready with the rotated key: ${DIR[$s]}/service.log"; exit 1; }; done
  rotated="yes: after the backup, services restarted with a new key and the old one in PLATFORM_ENCRYPTION_OLD_KEYS"
  say "key rotated after the backup; services restarted in $(secs_between "$t" "$(now_ms)") s"
  # a webhook address whose secret the new key seals (checkout), beside the one the old key sealed
  api "${PORT[checkout]}" "${PUSH_KEY_OF[checkout]}" /api/v1/webhook_endpoints \
    "{\"url\":\"http://127.0.0.1:$((BASE + 69))/ok\"}" > /dev/null
  RECV_PORTS[checkout]="${RECV_PORTS[checkout]} $((BASE + 69))"
  stop_receivers; start_receivers 1b
fi
sleep $(( LOAD2 > RECEIVERS_DOWN ? LOAD2 - RECEIVERS_DOWN : 0 ))
stop_receivers
say "receivers down for the last $RECEIVERS_DOWN s before T (deliveries pending at T)"
sleep "$RECEIVERS_DOWN"
for s in "${SVCS[@]}"; do touch "${DIR[$s]}/pause"; done
deadline=$(( $(date +%s) + 60 ))
for s in "${SVCS[@]}"; do
  until [ -s "${DIR[$s]}/pause.quiet" ] || [ "$(date +%s)" -gt "$deadline" ]; do sleep 0.1; done
  [ -s "${DIR[$s]}/pause.quiet" ] || { say "$s: the load did not go quiet within 60 s"; exit 1; }
done
last_ack=0
for s in "${SVCS[@]}"; do a=$(head -1 "${DIR[$s]}/pause.quiet"); [ "$a" -gt "$last_ack" ] && last_ack=$a; done
sleep 0.2
T_ms=$(now_ms); T=$(utc_ms "$T_ms")
sleep 0.5
say "load paused: last acknowledged write at $(utc_ms "$last_ack") UTC; T = $T UTC"
for s in "${SVCS[@]}"; do
  su_sql "SELECT d.event_id, t.url FROM $s.outbox_deliveries d JOIN $s.outbox_events e ON e.id = d.event_id
          JOIN $s.outbox_destinations t ON t.id = d.destination_id
          WHERE d.status = 'pending' AND e.owner_id = '${PUSH_OWNER_OF[$s]}' ORDER BY d.seq" > "${DIR[$s]}/pending-at-T.tsv"
done

# --- 3. load past T, the accident ---
for s in "${SVCS[@]}"; do rm -f "${DIR[$s]}/pause"; done
sleep "$AFTER_T"
accident_ms=$(now_ms)
su_sql "DROP SCHEMA wallet CASCADE" > /dev/null
deleted=$(su_sql "
  DO \$\$ DECLARE r record; BEGIN
    FOR r IN SELECT conrelid::regclass AS child FROM pg_constraint WHERE confrelid = 'checkout.payment_intents'::regclass AND contype = 'f' LOOP
      EXECUTE 'DELETE FROM ' || r.child;
    END LOOP;
  END \$\$;
  WITH d AS (DELETE FROM checkout.payment_intents RETURNING 1) SELECT count(*) FROM d")
say "accident at $(utc_ms "$accident_ms") UTC: DROP SCHEMA wallet CASCADE; DELETE of checkout's $deleted payment intents (and the rows referring to them)"
sleep 3

# --- 4. the restore to T ---
start_receivers 2
restore_ms=$(now_ms)
say "restore: deploy/ha/restore.sh --to '$T'"
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(now_ms)" "$l"; done; }
if ! "$HERE/restore.sh" --to "$T" 2>&1 > "$run/restore.out" | stamp > "$run/restore.log"; then
  say "restore.sh failed: $run/restore.log"; tail -5 "$run/restore.log"; exit 1
fi
restored_ms=$(now_ms)
# restore.sh first checks the time and pushes the current WAL (the cluster serves meanwhile), then stops the nodes
# (a commit may still land while they stop): what is sent once node1's restore begins can only be committed by the
# restored cluster
stop_ms=$(awk '/restoring node1/ {print $1; exit}' "$run/restore.log")
leader_ms=$(awk '/node1 leads again/ {print $1; exit}' "$run/restore.log")
say "restore.sh done in $(secs_between "$restore_ms" "$restored_ms") s (nodes stopped at $(secs_between "$restore_ms" "$stop_ms") s, node1 the leader at $(secs_between "$restore_ms" "$leader_ms") s) ($(grep -o 'node1 leads again after [0-9]* ms' "$run/restore.log" || true))"
# each service serves a creation again by itself, or is restarted
declare -A RESTARTED=() PROBE_MS=()
probe() { # s -> 0 when a creation is acknowledged now
  local code
  service_requests "${MOD[$1]}"
  code=$(curl -s -o /dev/null -w '%{http_code}' -m 10 -X POST "http://127.0.0.1:${PORT[$1]}$create_path" \
    -H "Authorization: Bearer ${PUSH_KEY_OF[$1]}" -H 'Content-Type: application/json' \
    -H "Idempotency-Key: drill-probe-$(now_ms)" -d "${create_body//\{n\}/probe-$(now_ms)}")
  [[ $code == 2* ]]
}
for s in "${SVCS[@]}"; do
  RESTARTED[$s]=no
  until probe "$s"; do
    if [ $(( $(now_ms) - restored_ms )) -gt $(( RECONNECT_WAIT * 1000 )) ]; then
      say "$s serves no creation ${RECONNECT_WAIT} s after the restore: restarting it"
      stop_service "$s"; start_service "$s"; wait_ready "${PORT[$s]}" "${SVC_PID[$s]}" || { say "$s did not start again"; exit 1; }
      RESTARTED[$s]=yes
    fi
    sleep 0.2
  done
  PROBE_MS[$s]=$(now_ms)
done
sleep "$AFTER_RESTORE"
kill "$sampler_pid" 2>/dev/null || true; wait "$sampler_pid" 2>/dev/null || true; sampler_pid=""

# --- the load stops; every acknowledged write is looked up by id through the API (the load tool's verify) ---
for s in "${SVCS[@]}"; do touch "${DIR[$s]}/stop"; done
for s in "${SVCS[@]}"; do wait "${LOAD_PID[$s]}" || true; unset "LOAD_PID[$s]"; done
say "load stopped; every acknowledged write looked up through the services' API"

# --- deliveries: what was pending at T, and everything the restored outbox holds, reaches its receiver ---
delivered_all() {
  local s n=0
  for s in "${SVCS[@]}"; do
    n=$(( n + $(su_sql "SELECT count(*) FROM $s.outbox_deliveries d JOIN $s.outbox_events e ON e.id = d.event_id
                        WHERE d.status <> 'delivered' AND e.owner_id = '${PUSH_OWNER_OF[$s]}'") ))
  done
  [ "$n" = 0 ]
}
t=$(now_ms)
until delivered_all || [ $(( $(now_ms) - t )) -gt $(( DELIVERY_WAIT * 1000 )) ]; do sleep 2; done
deliver_s=$(secs_between "$t" "$(now_ms)")
sleep 1
stop_receivers
for s in "${SVCS[@]}"; do
  su_sql "SELECT d.event_id, t.url, d.status FROM $s.outbox_deliveries d JOIN $s.outbox_events e ON e.id = d.event_id
          JOIN $s.outbox_destinations t ON t.id = d.destination_id WHERE e.owner_id = '${PUSH_OWNER_OF[$s]}'" > "${DIR[$s]}/deliveries-after.tsv"
  su_sql "SELECT DISTINCT object_id FROM $s.outbox_events WHERE owner_id = '${PUSH_OWNER_OF[$s]}'" > "${DIR[$s]}/event-objects.txt"
  su_sql "SELECT id FROM $s.outbox_events WHERE owner_id = '${PULL_OWNER_OF[$s]}'" > "${DIR[$s]}/feed-expected.txt"
done
timeline=$(su_sql "SELECT timeline_id FROM pg_control_checkpoint()")
archive_timeout=$(su_sql "SHOW archive_timeout")

# --- the figures ---
report=$(python3 - "$run" "$T_ms" "$restore_ms" "$restored_ms" "$accident_ms" "$stop_ms" "${RESTARTED[kyc]}" "${RESTARTED[checkout]}" "${RESTARTED[wallet]}" <<'PY'
import os, re, sys, collections
run, T, R, RD, A = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
S = int(sys.argv[6])
restarted = dict(kyc=sys.argv[7], checkout=sys.argv[8], wallet=sys.argv[9])
fail = False
out = []
for s in ("kyc", "checkout", "wallet"):
    d = os.path.join(run, s)
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(d, "load.tsv"))]
    acked = {}      # (id, kind) -> (sent ms, answered ms)
    for r in rows:
        if r[3] in ("create", "advance", "money") and r[4].startswith("2") and r[5] != "-":
            acked[(r[5], r[3])] = (int(r[0]), int(r[1]))
    verify = {(r[5], r[7]): (r[4], r[8]) for r in rows if r[3] == "verify"}
    before = [k for k, (sent, at) in acked.items() if at <= T]
    between = [k for k, (sent, at) in acked.items() if at > T and sent < S]
    after = [k for k, (sent, at) in acked.items() if sent >= S]
    lost_before = [(k, verify.get(k, ("unverified", "-"))) for k in before if verify.get(k, ("?",))[0] != "OK"]
    gone_between = sum(1 for k in between if verify.get(k, ("?",))[0] != "OK")
    lost_after = [(k, verify.get(k)) for k in after if verify.get(k, ("?",))[0] != "OK"]
    events = {l.strip() for l in open(os.path.join(d, "event-objects.txt"))}
    push_created_before = [r[5] for r in rows if r[3] == "create" and r[4].startswith("2") and r[5] != "-" and r[6] == "0" and int(r[1]) <= T]
    no_event = [i for i in push_created_before if i not in events]
    first = min((int(r[1]) for r in rows if r[3] == "create" and r[4].startswith("2") and int(r[0]) >= S), default=None)
    errs = collections.Counter(r[4] if r[4] == "ERR" or (r[4].startswith("5") and r[4] != "503") else r[4][0] + "xx" for r in rows
                               if r[3] in ("create", "advance", "money", "read") and A <= int(r[0]) < (first or 1 << 62))
    server_errors = sum(n for status, n in errs.items() if status.startswith("5") and status != "5xx")
    # deliveries: receivers' logs (phase 1: before T, phase 2: after the restore command)
    got1, got2 = collections.Counter(), collections.Counter()
    first2 = {}     # (port, event) -> first arrival (ms) after the restore command
    for f in os.listdir(d):
        m = re.match(r"recv-(\d+)\.(1|1b|2)\.log$", f)
        if m:
            for l in open(os.path.join(d, f)):
                x = l.split("\t")
                if x[1] == "/ok":
                    (got2 if m.group(2) == "2" else got1)[(m.group(1), x[2])] += 1
                    if m.group(2) == "2":
                        first2.setdefault((m.group(1), x[2]), int(x[0]) // 1000)
    port = lambda url: re.search(r":(\d+)/", url).group(1)
    pending = [(port(u), e) for e, u in (l.rstrip("\n").split("\t") for l in open(os.path.join(d, "pending-at-T.tsv")) if l.strip())]
    pending_missing = [p for p in pending if got2[p] == 0]
    after_rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(d, "deliveries-after.tsv")) if l.strip()]
    not_delivered = sum(1 for e, u, st in after_rows if got1[(port(u), e)] + got2[(port(u), e)] == 0)
    unsigned = 0
    for f in os.listdir(d):
        if re.match(r"recv-\d+\.(1|1b|2)\.log$", f):
            unsigned += sum(1 for l in open(os.path.join(d, f)) if l.split("\t")[1] == "/ok" and l.rstrip("\n").split("\t")[4] != "1")
    total = collections.Counter(got1) + collections.Counter(got2)
    twice = sum(1 for k, n in total.items() if n > 1)
    twice_restore = sum(1 for k in got2 if got1[k] > 0)
    feed_exp = {l.strip() for l in open(os.path.join(d, "feed-expected.txt")) if l.strip()}
    feed_read = {r[5] for r in rows if r[3] == "feed"}
    feed_missed = len(feed_exp - feed_read)
    feed_restarts = sum(1 for r in rows if r[3] == "feed_restart")
    ok = not lost_before and not lost_after and not no_event and not pending_missing and not_delivered == 0 and first is not None and not server_errors
    fail |= not ok
    out.append(f"{s}")
    out.append(f"  acknowledged before T: {len(before)} writes; missing after the restore: {len(lost_before)}"
               + ("" if not lost_before else "  <- FAIL " + "; ".join(f"{k[1]} {k[0]}: {v}" for k, v in lost_before[:10])))
    out.append(f"  acknowledged creations before T without their event after the restore: {len(no_event)} (of {len(push_created_before)})"
               + ("" if not no_event else "  <- FAIL " + " ".join(no_event[:10])))
    out.append(f"  acknowledged after T, sent before the nodes stopped: {len(between)} writes, gone after the restore: {gone_between} (expected: all)")
    out.append(f"  acknowledged, sent after the nodes stopped: {len(after)}; missing: {len(lost_after)}" + ("" if not lost_after else "  <- FAIL"))
    out.append(f"  restore command -> first acknowledged creation on the restored cluster: {'%.1f s' % ((first - R) / 1000) if first else 'none  <- FAIL'}"
               f" (nodes stopped at {(S - R) / 1000:.1f} s, restore.sh returned at {(RD - R) / 1000:.1f} s); restarted: {restarted[s]}")
    out.append(f"  answers from the accident to that creation: {dict(errs)} (5xx: 503 with Retry-After; any other 5xx is a bug)"
               + ("" if not server_errors else "  <- FAIL"))
    arrived = [first2[p] for p in pending if p in first2]
    out.append(f"  deliveries pending at T: {len(pending)}, delivered after the restore: {len(pending) - len(pending_missing)}"
               + (f" (the last {(max(arrived) - R) / 1000:.1f} s after the restore command: a failed attempt waits 1 min)" if arrived else "")
               + ("" if not pending_missing else f"  <- FAIL ({len(pending_missing)} missing)"))
    out.append(f"  deliveries the restored outbox holds: {len(after_rows)}, never received: {not_delivered}" + ("" if not not_delivered else "  <- FAIL"))
    out.append(f"  deliveries received more than once: {twice} (received before T and again after the restore: {twice_restore}); unsigned: {unsigned}")
    out.append(f"  feed: {len(feed_exp)} events of the follower's owner after the restore, not read: {feed_missed} (restarts from start: {feed_restarts})")
lag = [l.rstrip("\n").split("\t") for l in open(os.path.join(run, "archive-lag.tsv")) if l.count("\t") == 2]
lag_s = [float(x[1]) for x in lag if x[1] and int(x[0].split(".")[0]) * 1000 < T]
lag_b = [int(x[2]) for x in lag if x[2] and int(x[0].split(".")[0]) * 1000 < T]
if lag_s:
    out.append(f"archive lag under load (sampled each second before T, {len(lag_s)} samples): seconds since the last segment was archived:"
               f" max {max(lag_s):.1f}, mean {sum(lag_s) / len(lag_s):.1f}; WAL not yet archived: max {max(lag_b) / 1024:.0f} KiB,"
               f" mean {sum(lag_b) / len(lag_b) / 1024:.0f} KiB")
print("\n".join(out))
print("RESULT=" + ("FAIL" if fail else "PASS"))
PY
)
{
  echo
  echo "restore drill $(date -u '+%F %H:%M') UTC, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo '+changes'), key rotated: $rotated"
  echo "T = $T UTC (last acknowledged write $(utc_ms "$last_ack")); accident $(( (accident_ms - T_ms) / 1000 )) s after T; restore.sh $(secs_between "$restore_ms" "$restored_ms") s (nodes stopped $(secs_between "$restore_ms" "$stop_ms") s, node1 the leader $(secs_between "$restore_ms" "$leader_ms") s, then node2 and node3 rebuilt); cluster on timeline $timeline; archive_timeout $archive_timeout; backup under load $backup_s s; deliveries settled $deliver_s s after the load"
  echo "$report"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
} | tee "$run/report.txt"
grep -q '^RESULT=PASS' "$run/report.txt"
