# Shared functions of benchmarks/run.sh (sourced). Everything here talks to 127.0.0.1 only, to the throwaway
# Postgres cluster on $PGPORT (never the shared 5432 one) and to the services this harness started itself.

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
OFF=${BENCH_PORT_OFFSET:-0}   # shifts every port below, for a machine where another run holds them
PGPORT=${PGPORT:-$((5544 + OFF))}
PSQL=(psql -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d platform -v ON_ERROR_STOP=1)

SERVICES=(kyc checkout wallet)
declare -gA MODULE=([kyc]=kyc-service [checkout]=checkout-service [wallet]=wallet-gateway)
declare -gA PORT=([kyc]=$((18081 + OFF)) [checkout]=$((18082 + OFF)) [wallet]=$((18083 + OFF)))
declare -gA REPLICA_PORT=([kyc]=$((18091 + OFF)) [checkout]=$((18092 + OFF)) [wallet]=$((18093 + OFF)))
declare -gA OBJ_TABLE=([kyc]=kyc.verifications [checkout]=checkout.payment_intents [wallet]=wallet.payments)
declare -gA OWNER_COL=([kyc]=application_id [checkout]=application_id [wallet]=project_id)
declare -gA CREATE_PATH=([kyc]=/api/v1/verifications [checkout]=/api/v1/payment_intents [wallet]=/api/v1/payments)
declare -gA CREATE_STATUS=([kyc]=200 [checkout]=201 [wallet]=201)
declare -gA CREATE_BODY=(
  [kyc]='{"external_user_id":"u-{n}"}'
  [checkout]='{"amount":"10.000000","currency":"HTG"}'
  [wallet]='{"amount":1000,"currency":"HTG","reference":"r-{n}"}')
declare -gA READ_PATH=([kyc]=/api/v1/verifications/ [checkout]=/api/v1/payment_intents/ [wallet]=/api/v1/payments/)
declare -gA CREATED_EVENT=([kyc]=verification.created [checkout]=payment_intent.created [wallet]=payment.created)
declare -gA OWNERS_PATH=([checkout]=/admin/v1/applications [wallet]=/admin/v1/projects)
declare -gA ADDRESSES_PATH=([checkout]=/api/v1/webhook_endpoints [wallet]=/api/v1/webhooks)

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
now_ms() { date +%s%3N; }
record() { printf '%s=%s\n' "$1" "$2" >> "$RESULTS"; }   # key=value for the report

# a run's throwaway WORK (/tmp/<prefix>.XXXXXX), its LOGS (target/logs/<name>) and its empty RESULTS there; receivers
# and replicas hold many sockets
bench_workspace() {
  ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  WORK=$(mktemp -d "/tmp/$1.XXXXXX")
  chmod 755 "$WORK"
  LOGS="$BENCH/target/logs/$2"
  mkdir -p "$LOGS" "$BENCH/results"
  RESULTS="$LOGS/results.kv"
  : > "$RESULTS"
}
sql() { "${PSQL[@]}" -tA -c "$1"; }

# ------------------------------------------------------------------ the throwaway Postgres cluster

pg_init() {
  PGHOME="$WORK/pg"; PGDATA="$PGHOME/data"; PGSOCK="$PGHOME/sock"; PGLOG="$PGHOME/postgres.log"
  mkdir -p "$PGDATA" "$PGSOCK"
  chown -R postgres "$PGHOME"; chmod 700 "$PGDATA"
  runuser -u postgres -- "$PGBIN/initdb" -D "$PGDATA" -U postgres --auth=trust -E UTF8 --no-instructions >"$LOGS/initdb.log" 2>&1 \
    || { log "initdb failed (see $LOGS/initdb.log)"; return 1; }
  cat >> "$PGDATA/postgresql.conf" <<CONF
# benchmarks/run.sh: throwaway cluster
port = $PGPORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PGSOCK'
max_connections = 300
shared_buffers = 256MB
logging_collector = off
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.max = 1000
# the delivery figures count from each event's commit, as Postgres recorded it
track_commit_timestamp = on
# when autovacuum and checkpoints ran, to set beside a latency tail
log_autovacuum_min_duration = 0
log_checkpoints = on
log_line_prefix = '%m '
CONF
  pg_start
  "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -c "CREATE DATABASE platform" >/dev/null
  "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d platform -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
}

pg_top_reset() { sql "SELECT pg_stat_statements_reset()" >/dev/null 2>&1 || true; }
# pg_top outfile: the statements that took the most database time since the last reset
pg_top() {
  "${PSQL[@]}" -P pager=off -c "SELECT round(total_exec_time)::bigint AS total_ms, calls, round(mean_exec_time::numeric, 3) AS mean_ms,
      rows, left(regexp_replace(query, '\s+', ' ', 'g'), 230) AS query
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'platform')
    ORDER BY total_exec_time DESC LIMIT 15" > "$1" 2>&1 || true
}

pg_start() {
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGLOG" -w -t 60 start >/dev/null
}

pg_restart() {
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGLOG" -m fast -w -t 60 restart >/dev/null
}

pg_stop() {
  [ -n "${PGDATA:-}" ] && [ -f "$PGDATA/postmaster.pid" ] && \
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >/dev/null 2>&1 || true
}

# ------------------------------------------------------------------ services

declare -gA SVC_PID=()

service_env() { # port -> prints env assignments
  cat <<ENV
QUARKUS_HTTP_PORT=$1
PUBLIC_BASE_URL=http://127.0.0.1:$1
DB_REACTIVE_URL=postgresql://127.0.0.1:$PGPORT/platform
DB_JDBC_URL=jdbc:postgresql://127.0.0.1:$PGPORT/platform
DB_USER=${BENCH_DB_USER:-postgres}
DB_PASSWORD=${BENCH_DB_PASSWORD:-}
ADMIN_TOKEN=$ADMIN_TOKEN
PLATFORM_ENCRYPTION_KEY=$PLATFORM_ENCRYPTION_KEY
KYC_PROOF_SIGNING_KEY=$KYC_PROOF_SIGNING_KEY
WEBHOOKS_ALLOW_PRIVATE_TARGETS=true
WEBHOOKS_DELIVER=${DELIVER:-true}
KYC_RATE_LIMIT_PER_SECOND=$KYC_RATE
KYC_RATE_LIMIT_BURST=$KYC_RATE
DB_MIGRATE_AT_START=${MIGRATE_AT_START:-true}
QUARKUS_SHUTDOWN_DELAY=${BENCH_SHUTDOWN_DELAY:-0s}
ENV
  # EXTRA_ENV: more service environment, space separated (e.g. "QUARKUS_LOG_LEVEL=WARN")
  [ -z "${EXTRA_ENV:-}" ] || tr ' ' '\n' <<<"$EXTRA_ENV"
}

# QUARKUS_SHUTDOWN_DELAY: a pod's stop keeps serving 5 s with readiness DOWN for its endpoints controller; no
# benchmark step measures that wait, and the run stops services some twenty times

# fresh_secrets: the run's own operator token and service keys, exported for the services and the Jobs
fresh_secrets() {
  export ADMIN_TOKEN="bench-$(openssl rand -hex 16)"
  export PLATFORM_ENCRYPTION_KEY=$(openssl rand -base64 32)
  export KYC_PROOF_SIGNING_KEY=$(openssl genpkey -algorithm ed25519 -outform DER | base64 -w0)
}

# migrate_job svc: migrates the service's schema as its Kubernetes Job does (the jar with QUARKUS_INIT_AND_EXIT=true),
# so that a service started with MIGRATE_AT_START=false runs as a pod runs: no Flyway, no JDBC driver loaded
migrate_job() {
  local jar="$ROOT/${MODULE[$1]}/target/quarkus-app/quarkus-run.jar"
  # shellcheck disable=SC2046
  env $(MIGRATE_AT_START=true service_env 0 | tr '\n' ' ') QUARKUS_INIT_AND_EXIT=true "${BENCH_JAVA:-java}" -jar "$jar" \
    >>"$LOGS/$1-migrate.log" 2>&1 || { log "$1: the migration job failed (see $LOGS/$1-migrate.log)"; return 1; }
}

# prepare_schema svc: with MIGRATION=job, migrates as the Job does and makes every later start skip Flyway, as pods
prepare_schema() {
  [ "${MIGRATION:-start}" = job ] || return 0
  migrate_job "$1" || return 1
  export MIGRATE_AT_START=false
}

# start_service svc port -> sets SVC_PID[svc:port] and READY_MS (start-to-ready ms, or "n/a"); call it directly,
# never inside $(...), or the pid is lost in the subshell.
start_service() {
  local svc=$1 port=$2 jar="$ROOT/${MODULE[$1]}/target/quarkus-app/quarkus-run.jar"
  READY_MS=n/a
  [ -f "$jar" ] || { log "$svc: $jar missing"; return 1; }
  local t0; t0=$(now_ms)
  # shellcheck disable=SC2046
  # BENCH_AOT=auto (default): with the JDK 25 AOT cache the build wrote (target/quarkus-app/app.aot) and BENCH_JAVA a
  # JDK 25; BENCH_AOT=off: the plain fast-jar. The cache is named relative to the jar's directory.
  local aot=""
  [ "${BENCH_AOT:-auto}" != off ] && [ -f "${jar%/*}/app.aot" ] && aot="-XX:+IgnoreUnrecognizedVMOptions -XX:AOTCache=${jar%/*}/app.aot"
  env $(service_env "$port" | tr '\n' ' ') "${BENCH_JAVA:-java}" $aot $JAVA_OPTS -jar "$jar" >>"$LOGS/$svc-$port.log" 2>&1 &
  SVC_PID[$svc:$port]=$!
  local deadline=$(( t0 + ${READY_TIMEOUT:-90} * 1000 ))
  while [ "$(now_ms)" -lt "$deadline" ]; do
    if curl -fs -o /dev/null "http://127.0.0.1:$port/q/health/ready"; then
      READY_MS=$(( $(now_ms) - t0 )); return 0
    fi
    kill -0 "${SVC_PID[$svc:$port]}" 2>/dev/null || { log "$svc on $port died at start (see $LOGS/$svc-$port.log)"; return 1; }
    sleep 0.05
  done
  log "$svc on $port not ready within ${READY_TIMEOUT:-90} s"; return 1
}

stop_service() { # svc port [signal]
  local pid=${SVC_PID[$1:$2]:-}
  [ -n "$pid" ] || return 0
  kill "-${3:-TERM}" "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  unset "SVC_PID[$1:$2]"
}

rss_mib() { # pid
  awk '/^VmRSS:/ {printf "%.0f", $2/1024}' "/proc/$1/status" 2>/dev/null || echo n/a
}

# ------------------------------------------------------------------ credentials through the operator API

admin_post() { # port path json
  curl -fsS -X POST "http://127.0.0.1:$1$2" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d "$3"
}
api_post() { # port key path json
  curl -fsS -X POST "http://127.0.0.1:$1$3" -H "Authorization: Bearer $2" -H 'Content-Type: application/json' -d "$4"
}
jfield() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

# tenant svc port name [webhook_url...] -> prints "owner_id key" (webhooks subscribed to the creation event)
# address_body url|pull event -> the JSON that registers a webhook address for one event type
address_body() {
  if [ "$1" = pull ]; then echo "{\"delivery\":\"pull\",\"events\":[\"$2\"]}"
  else echo "{\"url\":\"$1\",\"events\":[\"$2\"]}"; fi
}

tenant() {
  local svc=$1 port=$2 name=$3; shift 3
  local owner key
  case $svc in
    kyc)
      local body="{\"name\":\"$name\",\"return_urls\":[\"https://example.com/done\"]"
      # the key is a test key: its events go to test_webhook_url (test and live addresses are apart)
      # "pull": no address URL, so its events stay on the feed
      [ $# -gt 0 ] && [ "$1" != pull ] && body="$body,\"webhook_url\":\"$1\",\"test_webhook_url\":\"$1\""
      owner=$(admin_post "$port" /admin/v1/applications "$body}" | jfield id) || return 1
      key=$(admin_post "$port" "/admin/v1/applications/$owner/keys" '{"mode":"test"}' | jfield key) || return 1 ;;
    checkout|wallet)
      owner=$(admin_post "$port" "${OWNERS_PATH[$svc]}" "{\"name\":\"$name\"}" | jfield id) || return 1
      key=$(admin_post "$port" "${OWNERS_PATH[$svc]}/$owner/keys" '{"mode":"test"}' | jfield key) || return 1
      for url in "$@"; do
        api_post "$port" "$key" "${ADDRESSES_PATH[$svc]}" "$(address_body "$url" "${CREATED_EVENT[$svc]}")" >/dev/null || return 1
      done ;;
  esac
  echo "$owner $key"
}

# tenants svc port name count url -> T_OWNERS ('id1','id2',...) and T_KEYS (key1,key2,...): `count` owners with one
# webhook address each. Many owners = many addresses, as in production (the wallet gateway sends one delivery per
# address at a time, so one address alone is a lane of its own).
tenants() {
  T_OWNERS=""; T_KEYS=""
  local i o k
  for i in $(seq 1 "$4"); do
    o=""; k=""
    read -r o k < <(tenant "$1" "$2" "$3-$i" "$5") || true
    [ -n "$k" ] || return 1
    T_OWNERS="${T_OWNERS:+$T_OWNERS,}'$o'"; T_KEYS="${T_KEYS:+$T_KEYS,}$k"
  done
}

# idle_owners svc port count: owners with one webhook address each that receive nothing (8 registrations at a time):
# the delivery figures with many merchants of whom few have events due
idle_owners() {
  local i pids=() failed=0 p
  for i in $(seq 1 "$3"); do
    tenant "$1" "$2" "bench-idle-$i" "http://127.0.0.1:9/idle" >/dev/null &
    pids+=($!)
    if (( ${#pids[@]} == 8 )) || (( i == $3 )); then
      for p in "${pids[@]}"; do wait "$p" || failed=1; done   # only these: the services and receivers are children too
      pids=()
    fi
  done
  return $failed
}

# expected_deliveries svc owners(comma, quoted list) outfile: event_id TAB event_commit_micros TAB url TAB delivery status
# (the commit time of the transaction that wrote the event, from track_commit_timestamp: kept in committed_at once
# the feed's sequencer has numbered the event; created_at where unknown)
expected_deliveries() {
  local svc=$1 owners=$2 out=$3 q
  # one outbox schema in every service (service-support db/outbox); each service's view names the addresses
  q="SELECT d.event_id, (extract(epoch FROM COALESCE(ev.committed_at, pg_xact_commit_timestamp(ev.xmin), ev.created_at))*1000000)::bigint, t.url, d.status
     FROM $svc.outbox_deliveries d JOIN $svc.outbox_events ev ON ev.id = d.event_id
     JOIN $svc.outbox_destinations t ON t.id = d.destination_id WHERE ev.owner_id IN ($owners)"
  "${PSQL[@]}" -tA -F $'\t' -c "$q" > "$out"
}

# ------------------------------------------------------------------ load tools

TOOLS_CP="$BENCH/target/tools"
build_tools() {
  mkdir -p "$TOOLS_CP"
  javac -d "$TOOLS_CP" "$BENCH/tools/Receiver.java" "$BENCH/tools/Load.java" "$BENCH/tools/OpenLoad.java" \
    "$BENCH/tools/FeedLatency.java" "$BENCH/tools/Failover.java" "$BENCH/tools/FeedFlood.java"
}

openload() { # url key GET:<ids>|POST:<body> rate seconds warmup_seconds connections outfile name
  java -Xmx256m -XX:+UseSerialGC -cp "$TOOLS_CP" OpenLoad "$@"
}

load() { # url keys body count concurrency max_seconds outfile [rate] [retries]
  java -Xmx256m -cp "$TOOLS_CP" Load "$@"
}

declare -gA RECV_PID=()
RPORT_NEXT=${RPORT_BASE:-$((18200 + OFF))}
# next_rport: a fresh receiver port for every test (a receiver also holds port+1 for its resetting socket), so late
# deliveries of an earlier test never land in a later test's log. Sets RPORT.
next_rport() { RPORT=$RPORT_NEXT; RPORT_NEXT=$((RPORT_NEXT + 2)); }
start_receiver() { # port logfile max_seconds
  java -Xmx256m -cp "$TOOLS_CP" Receiver "$1" "$2" "$3" >>"$LOGS/receiver-$1.out" 2>&1 &
  RECV_PID[$1]=$!
  for _ in $(seq 1 100); do curl -fs -o /dev/null "http://127.0.0.1:$1/stats" && return 0; sleep 0.1; done
  log "receiver on $1 did not start"; return 1
}
stop_receiver() {
  local pid=${RECV_PID[$1]:-}
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  unset "RECV_PID[$1]"
}
receiver_unique() { curl -fs "http://127.0.0.1:$1/stats" | python3 -c "import json,sys; print(json.load(sys.stdin)['unique'])"; }

# wait_delivered svc owners logfile expected_file max_seconds: until every delivery row of these owners has reached the
# receiver (/ok), or max_seconds. Leased deliveries of a killed process come back only when their lease expires.
wait_delivered() {
  local svc=$1 owners=$2 logf=$3 exp=$4 max=$5 start lost
  start=$(date +%s)
  while :; do
    expected_deliveries "$svc" "$owners" "$exp"
    lost=$(python3 "$BENCH/tools/analyze.py" delivery "$exp" "$logf" /ok 2>/dev/null | awk -F= '$1=="lost" || $1=="still_pending" {n += $2} END {print n}')
    [ "${lost:-1}" = 0 ] && [ -s "$exp" ] && { WAITED=$(( $(date +%s) - start )); return 0; }
    [ $(( $(date +%s) - start )) -ge "$max" ] && { WAITED=$(( $(date +%s) - start )); return 1; }
    sleep 2
  done
}

# wait_unique port expected max_seconds: until the receiver saw `expected` distinct event ids, or no progress
wait_unique() {
  local port=$1 expected=$2 max=$3 start last=-1 stalled=0 u
  start=$(date +%s)
  while :; do
    u=$(receiver_unique "$port" || echo 0)
    [ "$u" -ge "$expected" ] && return 0
    [ $(( $(date +%s) - start )) -ge "$max" ] && return 1
    if [ "$u" = "$last" ]; then stalled=$((stalled + 1)); else stalled=0; fi
    [ "$stalled" -ge 150 ] && return 1   # 30 s without a single new delivery
    last=$u; sleep 0.2
  done
}

# drain_sampler port pid outfile: "deliveries_seen service_cpu_ms" every 0.5 s until killed (curl and awk only: the
# sampler's own CPU stays small beside the drain it watches)
drain_sampler() {
  local tck; tck=$(getconf CLK_TCK)
  while :; do
    printf '%s %s\n' "$(curl -fs "http://127.0.0.1:$1/stats" | sed -nE 's/.*"unique":([0-9]+).*/\1/p')" \
      "$(awk -v t="$tck" '{sub(/.*\) /, ""); print int(($12 + $13) * 1000 / t)}' "/proc/$2/stat" 2>/dev/null)" >> "$3"
    sleep 0.5
  done
}

# thread_cpu pid -> the JVM's CPU time (ms) so far by kind of thread: "loop=… jit=… gc=… other=…" (event loops,
# the JIT's compiler threads, the collector's and VM threads, the rest); threads that ended meanwhile are not counted
thread_cpu() {
  python3 - "$(getconf CLK_TCK)" "$1" <<'PY'
import os, sys
tck = int(sys.argv[1]); base = f"/proc/{sys.argv[2]}/task"; t = {"loop": 0, "jit": 0, "gc": 0, "other": 0}
for tid in (os.listdir(base) if os.path.isdir(base) else []):
    try:
        raw = open(f"{base}/{tid}/stat").read()
    except OSError:
        continue
    name = raw[raw.index("(") + 1:raw.rindex(")")]; f = raw.rsplit(")", 1)[1].split()
    kind = ("loop" if name.startswith("vert.x-eventloo") else "jit" if "Compiler" in name
            else "gc" if name.startswith(("GC ", "G1 ", "VM Thread", "VM Periodic")) else "other")
    t[kind] += (int(f[11]) + int(f[12])) * 1000 // tck
print(" ".join(f"{k}={v}" for k, v in t.items()))
PY
}

# cpu_ms pid... -> CPU time (user + system, ms) the processes have used so far; "pg" stands for the throwaway
# cluster's postmaster and all its backends
cpu_ms() {
  local pids=() p
  for p in "$@"; do
    if [ "$p" = pg ]; then
      local pm; pm=$(head -1 "$PGDATA/postmaster.pid" 2>/dev/null) || continue
      pids+=("$pm" $(ps -o pid= --ppid "$pm"))
    else
      pids+=("$p")
    fi
  done
  python3 - "$(getconf CLK_TCK)" "${pids[@]}" <<'PY'
import sys
tck = int(sys.argv[1]); total = 0
for pid in sys.argv[2:]:
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += int(f[11]) + int(f[12])
    except (OSError, IndexError, ValueError):
        pass
print(total * 1000 // tck)
PY
}
