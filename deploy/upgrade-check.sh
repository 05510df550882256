#!/usr/bin/env bash
# The upgrade check: today's release replaces the release before it under steady load, then the previous release is
# rolled back onto the upgraded database. Runs what users run: the plain fast-jars, as deploy/local/run.sh does.
# For each service (kyc-service, checkout-service, wallet-gateway), one after the other:
#   1. the previous release (the commit in deploy/previous-release, built once and kept in target/upgrade-check/<commit>)
#      migrates and serves a fresh database; owners, keys and webhook addresses through the operator API, addresses
#      pointing at local receivers, a feed follower; steady load (creations, test-helper state changes, refunds or
#      withdrawals, reads) the whole time;
#   2. today's migrate Job: today's jar with QUARKUS_INIT_AND_EXIT=true while the previous release serves;
#   3. today's release starts beside it as a pod does (DB_MIGRATE_AT_START=false), the load moves over, the previous
#      release gets SIGTERM (its exit code, its `stopped in` line, the delivery leases it left);
#   4. after the load: every acknowledged write read back from today's release, every event at its receiver, wallet's
#      per-address order, leases held after today's release stops too;
#   5. rollback: the previous release starts on the upgraded database as a pod (no migration at start) and then with
#      migrate-at-start (its default); each must turn ready and serve a creation and a read.
# Prints a table per service and exits non-zero when a figure fails.
#   --service <name>   only this service (kyc-service|checkout-service|wallet-gateway, or kyc|checkout|wallet)
#   --keep             keep the logs (target/upgrade-check/run-*) and the database upgrade_check after a passing run
# SKIP_PACKAGE=1 uses today's jars in <service>/target/quarkus-app as they are. Ports 18100-18199 on 127.0.0.1.
# Postgres: the machine's on 127.0.0.1:5432 when it answers (database upgrade_check, dropped and created at start),
# otherwise the embedded one of deploy/local/run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

services=(kyc-service checkout-service wallet-gateway)
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --service) case "${2:-}" in
                 kyc|kyc-service) services=(kyc-service) ;;
                 checkout|checkout-service) services=(checkout-service) ;;
                 wallet|wallet-gateway) services=(wallet-gateway) ;;
                 *) echo "unknown service: ${2:-} (kyc-service, checkout-service, wallet-gateway)" >&2; exit 2 ;;
               esac; shift ;;
    --keep) keep=1 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

previous=$(grep -v '^#' deploy/previous-release | grep -m1 .)
# A release from before the expand/contract rule does not tolerate migrations newer than its own (Flyway's
# "applied migration not resolved locally"): rolled back with migrate-at-start it needs the setting that every release
# since carries, given as its operator would (docs/deployment.md).
FUTURE_TOLERATED=
if ! git show "$previous:service-support/src/main/resources/META-INF/microprofile-config.properties" 2>/dev/null \
    | grep -q 'ignore-migration-patterns=\*:future'; then
  FUTURE_TOLERATED='QUARKUS_FLYWAY_IGNORE_MIGRATION_PATTERNS=*:future QUARKUS_FLYWAY_MIGRATIONS_IGNORE_MIGRATION_PATTERNS=*:future'
fi
[ -z "$FUTURE_TOLERATED" ] || echo "note: $previous predates the expand/contract rule: its migrate-at-start rollback is given $FUTURE_TOLERATED"
work="$root/target/upgrade-check"
run="$work/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$run"
DB_NAME=upgrade_check
READY_TIMEOUT=${READY_TIMEOUT:-180}
WARM_SECONDS=${WARM_SECONDS:-15}      # load on the previous release before the migration
AFTER_SECONDS=${AFTER_SECONDS:-15}    # load on today's release after the previous one stopped
DELIVERY_WAIT=${DELIVERY_WAIT:-120}   # seconds every event may take to reach its receiver after the load
LEASE_SECONDS=20                      # webhooks.lease (service-support WebhookSettings)

say() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*"; }
now() { date +%s%N; }
secs() { local ns=$(( $(date +%s%N) - $1 )); printf '%d.%d' $((ns / 1000000000)) $((ns / 100000000 % 10)); }
# answers, json_field, admin, api, service_requests, make_owners, load_config: shared with deploy/ha/drill.sh
# shellcheck source=deploy/lib/service-load.sh
. deploy/lib/service-load.sh

# --- what the check started, stopped by its pid at the end ---
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the two builds ---
build_previous() { # the previous release's three fast-jars, once per commit
  prev_dir="$work/$previous"
  if [ -f "$prev_dir/.built" ]; then say "previous release $previous: built before ($prev_dir)"; return 0; fi
  local t src; t=$(now); src="$work/src-$previous"
  say "previous release $previous: building (git archive, ./mvnw -B -q -DskipTests package)"
  rm -rf "$src" "$prev_dir"; mkdir -p "$src"
  git archive "$previous" | tar -x -C "$src"
  ( cd "$src" && { ./mvnw -B -q -o -DskipTests -pl kyc-service,checkout-service,wallet-gateway -am package \
                   || ./mvnw -B -q -DskipTests -pl kyc-service,checkout-service,wallet-gateway -am package; } ) \
    > "$run/build-previous.log" 2>&1 || { say "the previous release does not build: $run/build-previous.log"; exit 1; }
  local m; for m in kyc-service checkout-service wallet-gateway; do
    mkdir -p "$prev_dir/$m"; cp -a "$src/$m/target/quarkus-app" "$prev_dir/$m/"
  done
  rm -rf "$src"; touch "$prev_dir/.built"
  build_previous_s=$(secs "$t")
}
build_today() {
  if [ "${SKIP_PACKAGE:-0}" = 1 ]; then say "today's release: the jars in */target/quarkus-app (SKIP_PACKAGE=1)"; return 0; fi
  local t; t=$(now)
  say "today's release: building (./mvnw -B -q -DskipTests package)"
  ./mvnw -B -q -DskipTests -pl dev-postgres,kyc-service,checkout-service,wallet-gateway -am package > "$run/build-today.log" 2>&1 \
    || { say "today's release does not build: $run/build-today.log"; exit 1; }
  build_today_s=$(secs "$t")
}
build_tools() {
  mkdir -p "$work/tools"
  javac -d "$work/tools" deploy/upgrade-check/UpgradeLoad.java benchmarks/tools/Receiver.java
}

# --- PostgreSQL: the machine's (as run.sh) or the embedded one; a fresh database each run ---
start_postgres() {
  DB_HOST=127.0.0.1 DB_PORT=5432 DB_USER=${DB_USER:-postgres} DB_PASSWORD=${DB_PASSWORD:-}
  if ! answers "$DB_HOST" "$DB_PORT"; then
    [ -d dev-postgres/target/lib ] || ./mvnw -B -q -DskipTests -pl dev-postgres -am package > "$run/build-dev-postgres.log" 2>&1
    DB_USER=postgres DB_PASSWORD=
    DB_PORT=$(java -cp "dev-postgres/target/classes:dev-postgres/target/lib/*" ht.platform.devpostgres.EmbeddedPostgresServer \
      start "$root/.run-local/postgres" $$ postgres 2>>"$run/dev-postgres.log")
  fi
  command -v psql > /dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -q postgresql-client > "$run/apt.log" 2>&1; } \
    || { say "psql is needed (apt-get install postgresql-client)"; exit 1; }
  export PGPASSWORD=$DB_PASSWORD PGOPTIONS='-c client_min_messages=warning'
  psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d postgres -v ON_ERROR_STOP=1 \
    -c "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" -c "CREATE DATABASE $DB_NAME" > /dev/null
  say "database $DB_NAME on $DB_HOST:$DB_PORT (fresh)"
}
sql() { psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d "$DB_NAME" -v ON_ERROR_STOP=1 -tA -F $'\t' -c "$1"; }

prepare_secrets() {
  export ADMIN_TOKEN="upgrade-check-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
  export PLATFORM_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
  export KYC_PROOF_SIGNING_KEY=$(java deploy/local/Ed25519Key.java)
}

# --- one release of one service: start (background), wait ready, stop with SIGTERM ---
# start_release <quarkus-app dir> <port> <log> <migrate-at-start true|false> [more env]: sets REL_PID
start_release() {
  local app=$1 port=$2 log=$3 migrate=$4; shift 4
  env QUARKUS_HTTP_PORT="$port" PUBLIC_BASE_URL="http://127.0.0.1:$port" \
    DB_REACTIVE_URL="postgresql://$DB_HOST:$DB_PORT/$DB_NAME" DB_JDBC_URL="jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME" \
    DB_USER="$DB_USER" DB_PASSWORD="$DB_PASSWORD" WEBHOOKS_ALLOW_PRIVATE_TARGETS=true DB_MIGRATE_AT_START="$migrate" "$@" \
    java -jar "$app/quarkus-run.jar" >> "$log" 2>&1 &
  REL_PID=$!
  pids+=("$REL_PID")
}
# stop_release pid log -> STOP_CODE (exit code; "killed" when it had to be killed after 30 s), STOP_LINE (yes|no)
stop_release() {
  local pid=$1 log=$2 i
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; STOP_CODE=killed
  else
    STOP_CODE=0; wait "$pid" 2>/dev/null || STOP_CODE=$?
  fi
  STOP_LINE=no; grep -q 'stopped in' "$log" && STOP_LINE=yes
  return 0
}
# why a release did not start: Flyway's verdict, else the first ERROR message
start_failure() {
  local m
  m=$(grep -o 'Migration checksum mismatch for migration version [0-9.]*\|Detected applied migration not resolved locally: [0-9.]*' "$1" | sed 's/\.$//' | head -2 | paste -sd';' -)
  [ -n "$m" ] || m=$(grep '"level":"ERROR"' "$1" | grep -o '"message":"[^"]*"' | head -1 | cut -c12-170)
  [ -n "$m" ] || m=$(grep -m1 'ERROR' "$1" | cut -c1-160)
  echo "${m:-see $1}"
}

# --- per service: its requests (service_requests, deploy/lib/service-load.sh), ports and receivers ---
service_setup() { # module
  service_requests "$1"
  old_port=$((18100 + i)) new_port=$((18110 + i))
  # receivers: one per webhook address (a receiver also holds its port + 1)
  recv_ports=($((18130 + 10 * i)))
  [ "$s" = wallet ] && recv_ports+=($((18130 + 10 * i + 2)))
  dir="$run/$s"; mkdir -p "$dir"
}

# --- figures ---
declare -A F=()   # F[<service>.<figure>]
fig() { F[$s.$1]=$2; }
failed=0

# the deliveries each receiver must have had; writes $dir/expected.tsv: event_id url seq object_id
expected_deliveries() {
  sql "SELECT d.event_id, t.url, d.seq, e.object_id FROM $s.outbox_deliveries d JOIN $s.outbox_events e ON e.id = d.event_id
       JOIN $s.outbox_destinations t ON t.id = d.destination_id WHERE e.owner_id = '$PUSH_OWNER' ORDER BY d.seq" > "$dir/expected.tsv"
}
undelivered() { # -> how many expected deliveries have not reached their receiver
  expected_deliveries
  python3 - "$dir/expected.tsv" "$dir" <<'PY'
import sys, re, os
exp, d = sys.argv[1], sys.argv[2]
got = {}
for f in os.listdir(d):
    m = re.match(r'recv-(\d+)\.log$', f)
    if m:
        got[m.group(1)] = {l.split('\t')[2] for l in open(os.path.join(d, f)) if l.split('\t')[1] == '/ok'}
n = 0
for l in open(exp):
    ev, url, seq, obj = l.rstrip('\n').split('\t')
    port = re.search(r':(\d+)/', url).group(1)
    n += ev not in got.get(port, set())
print(n)
PY
}

# one service, the whole way
check_service() {
  service_setup "$1"
  local prev_app="$prev_dir/$mod/quarkus-app" today_app="$root/$mod/target/quarkus-app" t p old_pid new_pid load_pid
  say "== $mod: previous release $previous, today's $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo '+changes')"
  for p in "${recv_ports[@]}"; do
    java -cp "$work/tools" Receiver "$p" "$dir/recv-$p.log" 1800 > "$dir/recv-$p.out" 2>&1 & pids+=($!)
  done
  # 1. the previous release serves its own database (migrate-at-start, its default)
  t=$(now)
  start_release "$prev_app" "$old_port" "$dir/previous.log" true; old_pid=$REL_PID
  wait_ready "$old_port" "$old_pid" || { say "$mod: the previous release did not start: $(start_failure "$dir/previous.log")"; fig rollback_pod "not reached"; failed=1; return 0; }
  fig s_prev_start "$(secs "$t")"
  for p in "${recv_ports[@]}"; do until answers 127.0.0.1 "$p"; do sleep 0.2; done; done
  make_owners "$old_port" || { say "$mod: owners could not be made"; failed=1; return 0; }
  echo "http://127.0.0.1:$old_port" > "$dir/base"; rm -f "$dir/stop"
  load_config > "$dir/load.properties"
  java -Xmx128m -cp "$work/tools" UpgradeLoad "$dir/load.properties" > "$dir/load.out" 2> "$dir/load.err" & load_pid=$!; pids+=("$load_pid")
  say "$mod: previous release ready on $old_port (${F[$s.s_prev_start]} s); load for ${WARM_SECONDS} s"
  sleep "$WARM_SECONDS"
  # 2. today's migrate Job while the previous release serves
  t=$(now)
  if env DB_REACTIVE_URL="postgresql://$DB_HOST:$DB_PORT/$DB_NAME" DB_JDBC_URL="jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME" \
      DB_USER="$DB_USER" DB_PASSWORD="$DB_PASSWORD" DB_MIGRATE_AT_START=true QUARKUS_INIT_AND_EXIT=true QUARKUS_HTTP_PORT=0 \
      java -jar "$today_app/quarkus-run.jar" > "$dir/migrate.log" 2>&1; then
    fig s_migrate "$(secs "$t")"; fig migrate ok
  else
    fig s_migrate "$(secs "$t")"; fig migrate "FAILED: $(start_failure "$dir/migrate.log")"; failed=1
  fi
  say "$mod: today's migrate Job: ${F[$s.migrate]} (${F[$s.s_migrate]} s)"
  # 3. today's release beside it, as a pod; the load moves over; SIGTERM to the previous one
  t=$(now)
  start_release "$today_app" "$new_port" "$dir/today.log" false; new_pid=$REL_PID
  if ! wait_ready "$new_port" "$new_pid"; then
    say "$mod: today's release did not turn ready: $(start_failure "$dir/today.log")"; fig today_stop "today's release did not start"; failed=1
    touch "$dir/stop"; wait "$load_pid" || true; return 0
  fi
  fig s_today_start "$(secs "$t")"
  echo "http://127.0.0.1:$new_port" > "$dir/base"
  sleep 2   # what was sent to the previous release before the move is answered by it
  t=$(now)
  stop_release "$old_pid" "$dir/previous.log"
  local exit_at; exit_at=$(date +%s)
  fig s_prev_stop "$(secs "$t")"; fig prev_stop "exit $STOP_CODE, stopped-in line: $STOP_LINE"
  say "$mod: today's release ready on $new_port (${F[$s.s_today_start]} s), load moved; previous release SIGTERM: ${F[$s.prev_stop]} (${F[$s.s_prev_stop]} s)"
  # a lease the previous release left: taken before it exited (ends by exit + lease) and still held 2 s later, when
  # today's release (a fast receiver) has long finished any send it had begun by then
  sleep 2
  fig leases_prev "$(sql "SELECT count(*) FROM $s.outbox_deliveries WHERE status = 'pending' AND lease_until > now()
                          AND lease_until <= to_timestamp($exit_at + $LEASE_SECONDS)")"
  sleep "$AFTER_SECONDS"
  # 4. the load stops; its tool reads the feed on, then looks up every acknowledged write on today's release
  touch "$dir/stop"; t=$(now)
  wait "$load_pid" || true
  fig s_verify "$(secs "$t")"
  t=$(now); local left
  while left=$(undelivered) && [ "$left" != 0 ] && [ "$(( ($(now) - t) / 1000000000 ))" -lt "$DELIVERY_WAIT" ]; do sleep 2; done
  fig s_deliver "$(secs "$t")"
  figures "$left"
  # rollback: today's release stops (its leases counted), the previous release starts on the upgraded database
  t=$(now)
  stop_release "$new_pid" "$dir/today.log"
  fig today_stop "exit $STOP_CODE, stopped-in line: $STOP_LINE"
  fig leases_today "$(sql "SELECT count(*) FROM $s.outbox_deliveries WHERE status = 'pending' AND lease_until > now()")"
  rollback pod "$prev_app" false QUARKUS_FLYWAY_MIGRATE_AT_START=false
  rollback migrate "$prev_app" true $FUTURE_TOLERATED
}

# rollback mode app migrate [env]: the previous release on the upgraded database: ready, one creation, one read
rollback() {
  local mode=$1 app=$2 migrate=$3 t pid log="$dir/rollback-$1.log" id code; shift 3
  t=$(now)
  start_release "$app" "$old_port" "$log" "$migrate" "$@"; pid=$REL_PID
  if ! wait_ready "$old_port" "$pid"; then
    fig "rollback_$mode" "FAILED: not ready: $(start_failure "$log")"; fig "s_rollback_$mode" "$(secs "$t")"; failed=1
    kill -0 "$pid" 2>/dev/null && stop_release "$pid" "$log"
    return 0
  fi
  fig "s_rollback_$mode" "$(secs "$t")"
  id=$(curl -sS -X POST "http://127.0.0.1:$old_port$create_path" -H "Authorization: Bearer $PUSH_KEY" -H 'Content-Type: application/json' \
       -H "Idempotency-Key: uc-rollback-$mode" -d "${create_body//\{n\}/rollback-$mode}" | json_field id)
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$old_port$read_prefix$id" -H "Authorization: Bearer $PUSH_KEY")
  if [ -n "$id" ] && [ "$code" = 200 ]; then fig "rollback_$mode" "served (ready, created $id, read 200)"
  else fig "rollback_$mode" "FAILED: ready, but creation '${id:-none}', read $code"; failed=1; fi
  stop_release "$pid" "$log"
}

# the load's lines and the receivers' logs -> the figures
figures() {
  local left=$1 tsv="$dir/load.tsv"
  fig acked "$(awk -F'\t' '$4 ~ /^(create|advance|money)$/ && $5 ~ /^2/ && $6 != "-"' "$tsv" | wc -l)"
  fig lost "$(awk -F'\t' '$4 == "verify" && $5 == "LOST"' "$tsv" | wc -l)"
  fig answers "$(awk -F'\t' '$4 ~ /^(create|advance|money|read)$/' "$tsv" | wc -l)"
  fig 5xx "$(awk -F'\t' '$4 ~ /^(create|advance|money|read|feed_error)$/ && $5 ~ /^5/' "$tsv" | wc -l)"
  fig 4xx "$(awk -F'\t' '$4 ~ /^(create|advance|money|read|feed_error)$/ && $5 ~ /^4/' "$tsv" | wc -l)"
  # no answer: a connection refused or reset, a timeout; and what was sent but never came back at all
  local err sent answered
  err=$(awk -F'\t' '$4 ~ /^(create|advance|money|read|feed_error)$/ && $5 == "ERR"' "$tsv" | wc -l)
  sent=$(sed -n 's/^sent=//p' "$dir/load.out"); answered=$(awk -F'\t' '$4 ~ /^(create|advance|money|read)$/' "$tsv" | wc -l)
  fig unanswered "$(( err + ${sent:-0} - answered ))"
  # acknowledged creations of the webhook owner without their event, plus deliveries not at their receiver
  awk -F'\t' '$4 == "create" && $5 ~ /^2/ && $6 != "-" && $7 == 0 {print $6}' "$tsv" | sort > "$dir/acked-push.txt"
  sql "SELECT DISTINCT object_id FROM $s.outbox_events WHERE owner_id = '$PUSH_OWNER'" | sort > "$dir/event-objects.txt"
  fig not_delivered "$(( left + $(comm -23 "$dir/acked-push.txt" "$dir/event-objects.txt" | wc -l) ))"
  fig deliveries "$(wc -l < "$dir/expected.tsv")"
  # the feed: every event of the pull owner read by the follower
  sql "SELECT id FROM $s.outbox_events WHERE owner_id = '$PULL_OWNER'" | sort > "$dir/feed-expected.txt"
  awk -F'\t' '$4 == "feed" {print $6}' "$tsv" | sort -u > "$dir/feed-read.txt"
  fig feed_events "$(wc -l < "$dir/feed-expected.txt")"
  fig feed_missed "$(comm -23 "$dir/feed-expected.txt" "$dir/feed-read.txt" | wc -l)"
  fig feed_restarts "$(awk -F'\t' '$4 == "feed_restart"' "$tsv" | wc -l)"
  fig order "$( [ "$s" = wallet ] && order_kept || echo n/a)"
}
# wallet: at each address, each payment's and withdrawal's events arrived in the order they were written
order_kept() {
  python3 - "$dir/expected.tsv" "$dir" <<'PY'
import sys, re, os
exp, d = sys.argv[1], sys.argv[2]
want = {}   # (port, object) -> event ids by seq
for l in open(exp):
    ev, url, seq, obj = l.rstrip('\n').split('\t')
    want.setdefault((re.search(r':(\d+)/', url).group(1), obj), []).append((int(seq), ev))
bad = 0
for (port, obj), evs in want.items():
    first = []
    for l in open(os.path.join(d, f'recv-{port}.log')):
        f = l.split('\t')
        if f[1] == '/ok' and f[2] not in first and f[2] in {e for _, e in evs}:
            first.append(f[2])
    bad += first != [e for _, e in sorted(evs)]
print('kept' if bad == 0 else f'NOT kept ({bad} objects out of order)')
PY
}

# judge value: the value, marked FAIL unless it is what must hold
judge() {
  case "$1" in
    "exit killed"*) echo "$1  <- FAIL" ;;
    0|kept|n/a|ok|served*|"exit "*"line: yes") echo "$1" ;;
    *) echo "$1  <- FAIL" ;;
  esac
}
report_service() {
  printf '%s (previous %s -> today %s)\n' "$mod" "${previous:0:12}" "$(git rev-parse --short=12 HEAD)"
  printf '  %-52s %s\n' \
    "acknowledged writes (creations, state changes, money)" "${F[$s.acked]:-?}" \
    "acknowledged writes lost" "$(judge "${F[$s.lost]:-?}")" \
    "answers >= 500 (of ${F[$s.answers]:-?} answers)" "$(judge "${F[$s.5xx]:-?}")" \
    "requests without an answer" "$(judge "${F[$s.unanswered]:-?}")" \
    "answers 4xx (not judged)" "${F[$s.4xx]:-?}" \
    "events not delivered (of ${F[$s.deliveries]:-?} webhook deliveries)" "$(judge "${F[$s.not_delivered]:-?}")" \
    "feed events not read (of ${F[$s.feed_events]:-?}; restarts from start: ${F[$s.feed_restarts]:-?})" "$(judge "${F[$s.feed_missed]:-?}")" \
    "per-address order kept (wallet)" "$(judge "${F[$s.order]:-?}")" \
    "leases left held by the previous release" "$(judge "${F[$s.leases_prev]:-?}")" \
    "leases left held by today's release" "$(judge "${F[$s.leases_today]:-?}")" \
    "SIGTERM to the previous release" "$(judge "${F[$s.prev_stop]:-?}")" \
    "SIGTERM to today's release" "$(judge "${F[$s.today_stop]:-?}")" \
    "today's migrate Job while the previous release serves" "$(judge "${F[$s.migrate]:-?}")" \
    "rollback as a pod (no migration at start)" "$(judge "${F[$s.rollback_pod]:-?}")" \
    "rollback with migrate-at-start" "$(judge "${F[$s.rollback_migrate]:-?}")"
  printf '  seconds: previous start %s, migrate Job %s, today start %s, previous stop %s, load end+feed+lookups %s, deliveries %s, rollback pod %s, rollback migrate %s\n' \
    "${F[$s.s_prev_start]:-?}" "${F[$s.s_migrate]:-?}" "${F[$s.s_today_start]:-?}" "${F[$s.s_prev_stop]:-?}" \
    "${F[$s.s_verify]:-?}" "${F[$s.s_deliver]:-?}" "${F[$s.s_rollback_pod]:-?}" "${F[$s.s_rollback_migrate]:-?}"
}

started=$(now)
build_previous
build_today
build_tools
start_postgres
prepare_secrets
for m in "${services[@]}"; do
  check_service "$m"
  cleanup; pids=()     # this service's releases, receivers and load
  printed=$(report_service)
  printf '\n%s\n\n' "$printed" | tee -a "$run/report.txt"
  [[ $printed != *'<- FAIL'* ]] || failed=1
done
say "upgrade check done in $(secs "$started") s (builds: previous ${build_previous_s:-cached}, today ${build_today_s:-skipped}); load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$failed" = 0 ] && [ "$keep" = 0 ]; then
  rm -rf "$run"
  psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d postgres -c "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" > /dev/null || true
  say "PASS"
else
  say "$([ "$failed" = 0 ] && echo PASS || echo FAIL); logs and the table in $run, database $DB_NAME kept"
fi
exit "$failed"
