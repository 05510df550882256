#!/usr/bin/env bash
# One command: speed (service vs pgbench ceiling, delivery) and faults (kill -9, Postgres restart, two replicas,
# bad receivers) against kyc-service, checkout-service and wallet-gateway started from their fast-jars, on a
# throwaway Postgres cluster (port 5544). Prints the speed table and the fault table and writes them to
# benchmarks/results/latest.md. See README.md.
#
#   benchmarks/run.sh            full run (~30 min on 2 cores)
#   benchmarks/run.sh --quick    short smoke run (small N, short phases)
# Environment: SERVICES_ONLY="wallet checkout" (subset), SKIP_FAULTS=1, SKIP_SPEED=1, SKIP_DELIVERY=1,
# DELIVERY_ONLY=1 (only the delivery figures: no creation/read phases, no faults), DRAIN_ONLY=1 (only the backlog
# drain of the delivery figures; with PROFILE_DRAIN=1 a JFR profile of it in results/profile-drain-<service>.txt), FEED_ONLY=1 (only the event feed's
# figures), SKIP_FEED=1, READY_TIMEOUT (s, 90), BENCH_PORT_OFFSET (shifts
# every port), JAVA_OPTS (-Xmx512m), JVM_PROFILE=pod (instead: the images' options, deploy/pod-jvm.options, in a
# POD_MEMORY=512m pod), MIGRATION=job (each schema migrated first as its Kubernetes Job does; the services start
# without Flyway, as pods), USERS,
# MERGE_FROM=<an earlier results.kv> (its figures fill what this run skipped, marked in the report).
# BENCH_JAVA (java; a JDK 25 uses the AOT cache a JDK 25 build wrote), BENCH_AOT=off (the plain fast-jar).
# HA=1: only the failover phase (lib/failover.sh), on deploy/ha's replicated Postgres (started when not running):
# FAILOVER_SECONDS (60), FAILOVER_LEAD (15), FAILOVER_RATE (20 creations/s per service), FAILOVER_MONEY_RATE (4);
# RPORT_BASE moves the receivers' ports.
# SKIP_POD=1, POD_ONLY=1, POD_SECONDS (10 s of creations, then of reads) (only RSS after load and start→ready with the images' JVM options, deploy/pod-jvm.options, in a
# pod of POD_MEMORY=512m and POD_CPUS=1; measured whatever JAVA_OPTS the other phases use). POD_EXTRA_OPTS: more JVM options for it (-XX:NativeMemoryTracking=summary writes logs/pod-nmt-SVC.txt).
# OPEN_WARMUP (s, 10): warm-up of each open-model phase (the closed-model phases before it warmed the JIT).
# PROFILE_ALL (1 in a full run, 0 with --quick): a JFR profile of every service's creation and read after the speed phases,
# results/profile-<service>-<kind>.txt, one line each in latest.md (the slowest ratio is always profiled).
# SKIP_STARTUP=1, STARTUP_ONLY=1 (only the start→ready / RSS table: JDK 17 fast-jar, JDK 25 fast-jar, JDK 25 with the
# AOT cache, each STARTUP_RUNS times against this run's migrated schema, through deploy/measure-startup.sh).
# Needs: JDK 17, PostgreSQL 15 binaries in /usr/lib/postgresql/15/bin, pgbench, python3, curl, openssl, root
# (initdb runs as the postgres user through runuser). The jars: ./mvnw -B -pl kyc-service,checkout-service,wallet-gateway -am package -DskipTests
set -uo pipefail

main() {
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1

if [ "$QUICK" = 1 ]; then
  SECONDS_PHASE=${SECONDS_PHASE:-5}; WARMUP=${WARMUP:-3}; SEED=${SEED:-300}; N_EVENTS=${N_EVENTS:-1000}
  N_LATENCY=${N_LATENCY:-1000}; N_REPLICA=${N_REPLICA:-300}; N_BAD=${N_BAD:-60}; PG_RESTART_SECONDS=${PG_RESTART_SECONDS:-10}; MODE_LABEL="quick"
else
  SECONDS_PHASE=${SECONDS_PHASE:-15}; WARMUP=${WARMUP:-30}; SEED=${SEED:-2000}; N_EVENTS=${N_EVENTS:-10000}
  N_LATENCY=${N_LATENCY:-4000}; N_REPLICA=${N_REPLICA:-3000}; N_BAD=${N_BAD:-200}; PG_RESTART_SECONDS=${PG_RESTART_SECONDS:-16}; MODE_LABEL="full"
fi
USERS=${USERS:-16}
# the open-model phases follow the closed-model ones on the same JVM, whose JIT has compiled the path by then
OPEN_WARMUP=${OPEN_WARMUP:-$(( WARMUP < 10 ? WARMUP : 10 ))}
OPEN_CONNECTIONS=${OPEN_CONNECTIONS:-64}   # keep-alive connections of the open-model generator
LANES=${LANES:-16}      # owners (each with one webhook address) that share the delivery load
IDLE_OWNERS=${IDLE_OWNERS:-0} # owners with a webhook address and no events, registered before the delivery figures
JAVA_OPTS=${JAVA_OPTS:--Xmx512m}
# the JVM options every image runs with (deploy/pod-jvm.options) in a pod of POD_MEMORY and POD_CPUS (its limits in
# deploy/k8s); JVM_PROFILE=pod runs every phase with them, and the pod step below measures RSS after load with them always
POD_JAVA_OPTS="-XX:MaxRAM=${POD_MEMORY:-512m} -XX:ActiveProcessorCount=${POD_CPUS:-1} $(grep -v '^#' "$ROOT/deploy/pod-jvm.options") ${POD_EXTRA_OPTS:-}"
if [ "${JVM_PROFILE:-}" = pod ]; then JAVA_OPTS=$POD_JAVA_OPTS; fi
KYC_RATE=${KYC_RATE:-100000}
BAD_P99_LIMIT_MS=${BAD_P99_LIMIT_MS:-5000}
LATENCY_RATE=${LATENCY_RATE:-200}   # events/s of the delivery latency phase (below the delivery capacity)
FEED_RATE=${FEED_RATE:-200}         # events/s of the feed latency phase
N_FEED=${N_FEED:-$((FEED_RATE * 20))}
FEED_IDLE=${FEED_IDLE:-1000}        # held feed reads with nothing to read
# the idle phase holds FEED_IDLE reads of one key: the per-key and per-owner limits on held reads are raised to that
# here (benchmarks/flood.sh measures the defaults against a flood from one key)
EXTRA_ENV="${EXTRA_ENV:+$EXTRA_ENV }PLATFORM_FEED_LIMITS_PER_KEY=$FEED_IDLE PLATFORM_FEED_LIMITS_PER_OWNER=$FEED_IDLE"
FEED_IDLE_SECONDS=${FEED_IDLE_SECONDS:-44}
STARTUP_RUNS=${STARTUP_RUNS:-3}   # starts per service and variant in the start→ready table

# shellcheck source=lib/common.sh
source "$BENCH/lib/common.sh"
bench_workspace platform-bench "$(date +%Y%m%d-%H%M%S)"

if [ -n "${HA:-}" ]; then
  # shellcheck source=lib/failover.sh
  source "$BENCH/lib/failover.sh"
  SKIP_SPEED=1; SKIP_FEED=1; SKIP_FAULTS=1; SKIP_STARTUP=1
fi

ACTIVE=("${SERVICES[@]}")
[ -n "${SERVICES_ONLY:-}" ] && read -r -a ACTIVE <<< "$SERVICES_ONLY"

cleanup() {
  trap - EXIT INT TERM
  for k in "${!SVC_PID[@]}"; do stop_service "${k%%:*}" "${k##*:}"; done
  for p in "${!RECV_PID[@]}"; do stop_receiver "$p"; done
  pg_stop
  cp -f "${PGLOG:-/nonexistent}" "$LOGS/" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# ------------------------------------------------------------------ preflight
for p in "$PGPORT" "${PORT[@]}" "${REPLICA_PORT[@]}" $(seq "$RPORT_NEXT" $((RPORT_NEXT + 40))); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    echo "port $p is already in use on 127.0.0.1; stop what uses it (another benchmark run?) or set BENCH_PORT_OFFSET" >&2; exit 1
  fi
done
fresh_secrets

record meta.mode "$MODE_LABEL"
record meta.date "$(date -u +%Y-%m-%dT%H:%MZ)"
record meta.nproc "$(nproc)"
record meta.cpu "$(awk -F: '/model name/ {gsub(/^ +/,"",$2); print $2; exit}' /proc/cpuinfo)"
record meta.mem "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
record meta.java "$("${BENCH_JAVA:-java}" -version 2>&1 | head -1 | tr -d '"')"
record meta.aot_cache "${BENCH_AOT:-auto} (app.aot used when the build wrote it; BENCH_JAVA must be the JDK 25 that built it)"
record meta.pg "$("$PGBIN/postgres" --version | awk '{print $3}')"
record meta.pgport "$PGPORT"
record meta.users "$USERS"
record meta.seconds "$SECONDS_PHASE"
record meta.warmup "$WARMUP"
record meta.open_warmup "$OPEN_WARMUP"
record meta.pod_java_opts "$POD_JAVA_OPTS"
record meta.open_connections "$OPEN_CONNECTIONS"
record meta.java_opts "$JAVA_OPTS"
record meta.kyc_rate "$KYC_RATE"
record meta.load_start "$(cut -d' ' -f1-3 /proc/loadavg)"

log "work dir $WORK, logs $LOGS"
build_tools || { echo "could not compile the tools" >&2; exit 1; }
if [ -z "${HA:-}" ]; then
  log "compiling the Gatling simulation"
  (cd "$BENCH" && "$ROOT/mvnw" -B -q test-compile >"$LOGS/mvn-compile.log" 2>&1) \
    || { log "Gatling simulation did not compile (see $LOGS/mvn-compile.log)"; GATLING_BROKEN=1; }
fi

if [ -n "${HA:-}" ]; then
  ha_load_env || exit 1
  record meta.pgport "$PGPORT (HAProxy of deploy/ha)"
  record meta.failover_rate "$FAILOVER_RATE"; record meta.failover_money_rate "$FAILOVER_MONEY_RATE"
  log "replicated Postgres: HAProxy on 127.0.0.1:$PGPORT, leader $(ha_leader)"
else
  log "initdb + start Postgres on 127.0.0.1:$PGPORT"
  pg_init || exit 1
fi

declare -gA UP=()
record meta.migration "${MIGRATION:-start}"
for svc in "${ACTIVE[@]}"; do
  prepare_schema "$svc"
  start_service "$svc" "${PORT[$svc]}"; ms=$READY_MS
  record "speed.$svc.ready_ms" "$ms"
  if [ "$ms" != "n/a" ]; then UP[$svc]=1; log "$svc ready in $ms ms"; else record "note.$svc" "$svc did not start: see the log; its rows are n/a"; fi
done

# ------------------------------------------------------------------ speed
gatling_run() { # svc phase key idsfile extra-props... -> the statistics file (key=value)
  local svc=$1 phase=$2 key=$3 ids=$4; shift 4
  local body=${CREATE_BODY[$svc]//\{n\}/#\{ref\}}
  (cd "$BENCH" && "$ROOT/mvnw" -B -q gatling:test \
      -Dbench.label="$svc-$phase" -Dbench.baseUrl="http://127.0.0.1:${PORT[$svc]}" \
      -Dbench.key="$key" -Dbench.createPath="${CREATE_PATH[$svc]}" -Dbench.createBodyB64="$(printf '%s' "$body" | base64 -w0)" \
      -Dbench.createStatus="${CREATE_STATUS[$svc]}" -Dbench.readPath="${READ_PATH[$svc]}" -Dbench.idsFile="$ids" \
      -Dbench.users="$USERS" -Dbench.seconds="$SECONDS_PHASE" -Dbench.warmupSeconds="$WARMUP" \
      -Dbench.statsFile="$LOGS/gatling-$svc-$phase.properties" -Dbench.pid="${SVC_PID[$svc:${PORT[$svc]}]}" "$@" \
      >"$LOGS/gatling-$svc-$phase.log" 2>&1)
  echo "$LOGS/gatling-$svc-$phase.properties"
}

open_run() { # svc key idsfile create_rate read_rate -> the statistics file (key=value)
  local svc=$1 key=$2 ids=$3 out="$LOGS/open-$1.properties"
  : > "$out"
  openload "http://127.0.0.1:${PORT[$svc]}${CREATE_PATH[$svc]}" "$key" "POST:${CREATE_BODY[$svc]}" "$4" "$SECONDS_PHASE" "$OPEN_WARMUP" \
    "$OPEN_CONNECTIONS" "$LOGS/open-$svc-create.properties" create >"$LOGS/open-$svc-create.log" 2>&1
  openload "http://127.0.0.1:${PORT[$svc]}${READ_PATH[$svc]}" "$key" "GET:$ids" "$5" "$SECONDS_PHASE" "$OPEN_WARMUP" \
    "$OPEN_CONNECTIONS" "$LOGS/open-$svc-read.properties" read >"$LOGS/open-$svc-read.log" 2>&1
  cat "$LOGS/open-$svc-create.properties" "$LOGS/open-$svc-read.properties" > "$out" 2>/dev/null
  echo "$out"
}

pgbench_run() { # svc kind owner logfile
  pgbench -h 127.0.0.1 -p "$PGPORT" -U postgres -n -M prepared -c "$USERS" -j 2 -T "$SECONDS_PHASE" \
    -D owner="$3" -D nids=5000 -f "$BENCH/sql/$1-$2.sql" platform >"$4" 2>&1
}

speed() {
  local svc=$1 port=${PORT[$1]} owner key
  read -r owner key < <(tenant "$svc" "$port" "bench-speed") || true
  if [ -z "${key:-}" ]; then record "note.$svc.speed" "$svc: operator API did not create credentials"; return; fi
  log "$svc: seeding $SEED objects (warm-up)"
  load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$key" "${CREATE_BODY[$svc]}" "$SEED" "$USERS" 120 "$LOGS/seed-$svc.tsv" >"$LOGS/seed-$svc.out" 2>&1
  local ids="$LOGS/ids-$svc.csv"
  { echo id; sql "SELECT id FROM ${OBJ_TABLE[$svc]} WHERE ${OWNER_COL[$svc]} = '$owner' LIMIT 5000"; } > "$ids"
  if [ "$(wc -l < "$ids")" -lt 2 ]; then
    record "note.$svc.speed" "$svc: creation failed during seeding ($(cat "$LOGS/seed-$svc.out"))"; return
  fi
  if [ -z "${GATLING_BROKEN:-}" ]; then
    log "$svc: Gatling closed model, $USERS users: warm-up, ${SECONDS_PHASE}s creations, ${SECONDS_PHASE}s reads"
    local st; st=$(gatling_run "$svc" max "$key" "$ids")
    eval "$(sed 's/^/G_/' "$st" 2>/dev/null)"
    record "speed.$svc.create_rps" "${G_create_rps:-n/a}"; record "speed.$svc.read_rps" "${G_read_rps:-n/a}"
    record "speed.$svc.create_cpu_ms" "${G_create_cpu_ms_per_req:-n/a}"; record "speed.$svc.read_cpu_ms" "${G_read_cpu_ms_per_req:-n/a}"
    record "speed.$svc.create_busy" "${G_create_machine_busy_pct:-n/a}"; record "speed.$svc.read_busy" "${G_read_machine_busy_pct:-n/a}"
    record "speed.$svc.create_cores" "${G_create_svc_cores:-n/a}"; record "speed.$svc.read_cores" "${G_read_svc_cores:-n/a}"
    local errs=$(( ${G_create_ko:-0} + ${G_read_ko:-0} ))
    local cr=${G_create_rps:-0} rr=${G_read_rps:-0}
    unset "${!G_@}"
    local crate rrate
    crate=$(python3 -c "print(max(1, round(float('$cr') / 2)))"); rrate=$(python3 -c "print(max(1, round(float('$rr') / 2)))")
    log "$svc: max create $cr/s, read $rr/s; open model at $crate/s and $rrate/s"
    st=$(open_run "$svc" "$key" "$ids" "$crate" "$rrate")
    eval "$(sed 's/^/G_/' "$st" 2>/dev/null)"
    record "speed.$svc.open_create_achieved" "${G_create_rps:-n/a}"; record "speed.$svc.open_read_achieved" "${G_read_rps:-n/a}"
    for k in p50 p95 p99 max backlog_max; do
      local v1="G_create_$k" v2="G_read_$k"
      record "speed.$svc.open_create_$k" "${!v1:-n/a}"; record "speed.$svc.open_read_$k" "${!v2:-n/a}"
    done
    record "speed.$svc.open_create_rate" "$crate"; record "speed.$svc.open_read_rate" "$rrate"
    errs=$(( errs + ${G_create_ko:-0} + ${G_read_ko:-0} ))
    record "speed.$svc.errors" "$errs"
    unset "${!G_@}"
  fi
  log "$svc: pgbench ceiling, $USERS clients, ${SECONDS_PHASE}s each"
  "${PSQL[@]}" -v owner="$owner" -v nids=5000 -f "$BENCH/sql/$svc-seed.sql" >/dev/null 2>"$LOGS/pgbench-$svc-seed.err"
  for kind in create read; do
    if pgbench_run "$svc" "$kind" "$owner" "$LOGS/pgbench-$svc-$kind.log"; then
      eval "$(python3 "$BENCH/tools/analyze.py" pgbench "$LOGS/pgbench-$svc-$kind.log" | sed 's/^/P_/')"
      record "speed.$svc.pg_${kind}_tps" "$P_tps"; unset "${!P_@}"
    else
      record "speed.$svc.pg_${kind}_tps" "n/a"
      record "note.$svc.pgbench_$kind" "$svc pgbench $kind failed: $(grep -m1 -i error "$LOGS/pgbench-$svc-$kind.log")"
    fi
  done
  record "speed.$svc.rss_mib" "$(rss_mib "${SVC_PID[$svc:$port]}")"
  SPEED_KEY[$svc]=$key; SPEED_IDS[$svc]=$ids
}

# Two delivery figures per service, each to its own receiver and its own LANES owners (one address each):
#  capacity: N_EVENTS created while the service runs with WEBHOOKS_DELIVER=false (an API-only replica), then the
#            service restarts delivering and drains that backlog: deliveries/s over the first-to-last arrival;
#  latency:  N_LATENCY events created at a fixed LATENCY_RATE (open model, below capacity) while it delivers:
#            the commit of the event (track_commit_timestamp) -> first arrival, p50/p99.
delivery_speed() {
  local svc=$1 port=${PORT[$1]} rport
  if [ "$IDLE_OWNERS" -gt 0 ]; then
    log "$svc: registering $IDLE_OWNERS idle owners (one webhook address each, never sent to)"
    idle_owners "$svc" "$port" "$IDLE_OWNERS" || log "$svc: not every idle owner was registered"
  fi
  next_rport; rport=$RPORT
  start_receiver "$rport" "$LOGS/recv-capacity-$svc.log" 900 || return
  if ! tenants "$svc" "$port" "bench-capacity" "$LANES" "http://127.0.0.1:$rport/ok"; then
    record "note.$svc.delivery" "$svc: webhook destination could not be registered"; stop_receiver "$rport"; return
  fi
  log "$svc: capacity: $N_EVENTS events through ${CREATE_PATH[$svc]} with delivery off ($LANES owners, one address each)"
  stop_service "$svc" "$port"
  DELIVER=false start_service "$svc" "$port" || { record "note.$svc.delivery" "$svc did not restart without delivery"; return; }
  local out; out=$(load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$T_KEYS" "${CREATE_BODY[$svc]}" "$N_EVENTS" "$USERS" 300 "$LOGS/capacity-load-$svc.tsv")
  record "delivery.$svc.production_rps" "$(sed -E 's/.*rps=([0-9.]+).*/\1/' <<<"$out")"
  local ok; ok=$(grep -c $'\t2[0-9][0-9]\t' "$LOGS/capacity-load-$svc.tsv")
  stop_service "$svc" "$port"
  log "$svc: capacity: restarting with delivery on; draining $ok events"
  start_service "$svc" "$port" || { record "note.$svc.delivery" "$svc did not restart"; return; }
  # where the CPU goes while draining, from the moment the service is ready (its JVM's start left out)
  local spid=${SVC_PID[$svc:$port]} jfr="$LOGS/profile-drain-$svc.jfr" u0 c0_svc c0_pg c0_recv
  [ -n "${PROFILE_DRAIN:-}" ] && jcmd "$spid" JFR.start name=drain settings=profile >/dev/null 2>&1
  local t0_svc; t0_svc=$(thread_cpu "$spid")
  u0=$(receiver_unique "$rport"); c0_svc=$(cpu_ms "$spid"); c0_pg=$(cpu_ms pg); c0_recv=$(cpu_ms "${RECV_PID[$rport]}")
  drain_sampler "$rport" "$spid" "$LOGS/drain-samples-$svc.txt" & local sampler=$!
  wait_unique "$rport" "$ok" 300 || log "$svc: not every event arrived in time"
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
  # steady: the service's CPU per delivery between 10 % and 90 % of the backlog delivered (the JVM's warm-up left out)
  record "delivery.$svc.capacity_cpu_ms_service_steady" "$(python3 - "$LOGS/drain-samples-$svc.txt" "$ok" <<'PY'
import sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 2]
n = int(sys.argv[2]); a = [r for r in rows if r[0] >= 0.1 * n]; b = [r for r in rows if r[0] <= 0.9 * n]
print(f"{(b[-1][1] - a[0][1]) / (b[-1][0] - a[0][0]):.3f}" if a and b and b[-1][0] - a[0][0] >= 0.5 * n else "n/a")
PY
)"
  record "delivery.$svc.capacity_cpu_deliveries" "$(( $(receiver_unique "$rport") - u0 ))"
  record "delivery.$svc.capacity_cpu_ms_service" "$(( $(cpu_ms "$spid") - c0_svc ))"
  record "delivery.$svc.capacity_cpu_ms_postgres" "$(( $(cpu_ms pg) - c0_pg ))"
  record "delivery.$svc.capacity_cpu_ms_receiver" "$(( $(cpu_ms "${RECV_PID[$rport]}") - c0_recv ))"
  # the service's part by kind of thread: the JIT compiling the freshly started delivery path is part of the drain
  local t1_svc kv; t1_svc=$(thread_cpu "$spid")
  for kv in $t1_svc; do
    record "delivery.$svc.capacity_cpu_ms_${kv%%=*}" "$(( ${kv#*=} - $(tr ' ' '\n' <<<"$t0_svc" | sed -n "s/^${kv%%=*}=//p") ))"
  done
  if [ -n "${PROFILE_DRAIN:-}" ]; then
    jcmd "$spid" JFR.dump name=drain filename="$jfr" >/dev/null 2>&1; jcmd "$spid" JFR.stop name=drain >/dev/null 2>&1
    python3 "$BENCH/tools/analyze.py" jfr "$jfr" 25 > "$BENCH/results/profile-drain-$svc.txt" 2>&1 || true
  fi
  wait_delivered "$svc" "$T_OWNERS" "$LOGS/recv-capacity-$svc.log" "$LOGS/capacity-expected-$svc.tsv" 90 || log "$svc: deliveries missing"
  stop_receiver "$rport"
  python3 "$BENCH/tools/analyze.py" delivery "$LOGS/capacity-expected-$svc.tsv" "$LOGS/recv-capacity-$svc.log" /ok \
    | while IFS='=' read -r k v; do record "delivery.$svc.capacity_$k" "$v"; done

  [ -n "${DRAIN_ONLY:-}" ] && return
  next_rport; rport=$RPORT
  start_receiver "$rport" "$LOGS/recv-latency-$svc.log" 900 || return
  tenants "$svc" "$port" "bench-latency" "$LANES" "http://127.0.0.1:$rport/ok" || { stop_receiver "$rport"; return; }
  log "$svc: latency: $N_LATENCY events at $LATENCY_RATE/s while delivering"
  # a short warm-up at the same rate first: the restarted JVM has not compiled the delivery path yet
  load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$T_KEYS" "${CREATE_BODY[$svc]}" "$((LATENCY_RATE * 5))" "$USERS" 60 "$LOGS/latency-warm-$svc.tsv" "$LATENCY_RATE" >/dev/null
  sleep 2; local since; since=$(date +%s%6N)
  out=$(load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$T_KEYS" "${CREATE_BODY[$svc]}" "$N_LATENCY" "$USERS" 300 "$LOGS/latency-load-$svc.tsv" "$LATENCY_RATE")
  record "delivery.$svc.latency_production_rps" "$(sed -E 's/.*rps=([0-9.]+).*/\1/' <<<"$out")"
  ok=$(grep -c $'\t2[0-9][0-9]\t' "$LOGS/latency-load-$svc.tsv")
  wait_unique "$rport" "$((ok + LATENCY_RATE * 5))" 300 || log "$svc: not every event arrived in time"
  wait_delivered "$svc" "$T_OWNERS" "$LOGS/recv-latency-$svc.log" "$LOGS/latency-expected-all-$svc.tsv" 90 || log "$svc: deliveries missing"
  stop_receiver "$rport"
  awk -F'\t' -v since="$since" '$2 >= since' "$LOGS/latency-expected-all-$svc.tsv" > "$LOGS/latency-expected-$svc.tsv"
  python3 "$BENCH/tools/analyze.py" delivery "$LOGS/latency-expected-$svc.tsv" "$LOGS/recv-latency-$svc.log" /ok \
    | while IFS='=' read -r k v; do record "delivery.$svc.$k" "$v"; done
}

declare -gA SPEED_KEY=() SPEED_IDS=()
[ -n "${DRAIN_ONLY:-}" ] && DELIVERY_ONLY=1
if [ -n "${STARTUP_ONLY:-}" ] || [ -n "${POD_ONLY:-}" ]; then SKIP_SPEED=1; SKIP_FEED=1; SKIP_FAULTS=1; fi
[ -n "${POD_ONLY:-}" ] && SKIP_STARTUP=1
if [ -z "${SKIP_SPEED:-}" ] && [ -z "${FEED_ONLY:-}" ]; then
  for svc in "${ACTIVE[@]}"; do
    [ -n "${UP[$svc]:-}" ] && [ -z "${DELIVERY_ONLY:-}" ] || continue
    pg_top_reset; speed "$svc"; pg_top "$LOGS/pg-top-speed-$svc.txt"
  done
  for svc in "${ACTIVE[@]}"; do
    [ -n "${UP[$svc]:-}" ] && [ -z "${SKIP_DELIVERY:-}" ] || continue
    pg_top_reset; delivery_speed "$svc"; pg_top "$LOGS/pg-top-delivery-$svc.txt"
  done
  cat "$LOGS"/pg-top-*.txt > "$BENCH/results/pg-top-latest.txt" 2>/dev/null || true
  for svc in "${ACTIVE[@]}"; do
    [ -n "${UP[$svc]:-}" ] && record "speed.$svc.rss_after_delivery_mib" "$(rss_mib "${SVC_PID[$svc:${PORT[$svc]}]}")"
  done

  # ---- profile the slowest ratio with JFR
  worst=$(python3 - "$RESULTS" <<'PY'
import sys
r = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[1]) if "=" in l)
best = None
for s in ("kyc", "checkout", "wallet"):
    for kind, a, b in (("create", "create_rps", "pg_create_tps"), ("read", "read_rps", "pg_read_tps")):
        try:
            v = float(r[f"speed.{s}.{a}"]) / float(r[f"speed.{s}.{b}"])
        except (KeyError, ValueError, ZeroDivisionError):
            continue
        if best is None or v < best[0]:
            best = (v, s, kind)
print(f"{best[1]} {best[2]} {best[0]:.2f}" if best else "")
PY
)
  # profile_kind svc create|read: JFR execution samples of SECONDS_PHASE of that load, summarised into
  # $LOGS/profile-<svc>-<kind>.txt and benchmarks/results/profile-<svc>-<kind>.txt
  profile_kind() {
    local psvc=$1 pkind=$2 pid=${SVC_PID[$1:${PORT[$1]}]} jfrfile="$LOGS/profile-$1-$2.jfr"
    log "profiling $psvc $pkind with JFR for ${SECONDS_PHASE}s"
    jcmd "$pid" JFR.start name=bench settings=profile >/dev/null 2>&1
    if [ "$pkind" = create ]; then
      load "http://127.0.0.1:${PORT[$psvc]}${CREATE_PATH[$psvc]}" "${SPEED_KEY[$psvc]}" "${CREATE_BODY[$psvc]}" 1000000 "$USERS" "$SECONDS_PHASE" "$LOGS/profile-load.tsv" >"$LOGS/profile-load.out"
    else
      load "http://127.0.0.1:${PORT[$psvc]}${READ_PATH[$psvc]}" "${SPEED_KEY[$psvc]}" "GET:${SPEED_IDS[$psvc]}" 1000000 "$USERS" "$SECONDS_PHASE" "$LOGS/profile-load.tsv" >"$LOGS/profile-load.out"
    fi
    jcmd "$pid" JFR.dump name=bench filename="$jfrfile" >/dev/null 2>&1
    jcmd "$pid" JFR.stop name=bench >/dev/null 2>&1
    python3 "$BENCH/tools/analyze.py" jfr "$jfrfile" 15 > "$LOGS/profile-$psvc-$pkind.txt" 2>&1 || true
    cp "$LOGS/profile-$psvc-$pkind.txt" "$BENCH/results/profile-$psvc-$pkind.txt" 2>/dev/null || true
  }
  if [ -n "$worst" ]; then
    read -r wsvc wkind wratio <<<"$worst"
    record "profile.target" "$wsvc $wkind (ratio $wratio)"
    profile_kind "$wsvc" "$wkind"
    cp "$LOGS/profile-$wsvc-$wkind.txt" "$BENCH/results/profile-latest.txt" 2>/dev/null || true
  fi
  # PROFILE_ALL (1 in a full run): every service's creation and read too, for where each goal's CPU goes
  if [ "${PROFILE_ALL:-$([ "$MODE_LABEL" = full ] && echo 1)}" = 1 ]; then
    record meta.profile_all 1
    for psvc in "${ACTIVE[@]}"; do
      [ -n "${UP[$psvc]:-}" ] || continue
      for pkind in create read; do
        [ "$psvc $pkind" = "${wsvc:-} ${wkind:-}" ] || profile_kind "$psvc" "$pkind"
      done
    done
  fi
fi

# ------------------------------------------------------------------ faults
fault_kill9() {
  local svc=$1 port=${PORT[$1]} rport owner key
  next_rport; rport=$RPORT
  local F="fault.kill9.$svc"
  record "$F.name" "kill -9 while delivering"
  start_receiver "$rport" "$LOGS/recv-kill9-$svc.log" 900 || return
  tenants "$svc" "$port" "bench-kill9" "$LANES" "http://127.0.0.1:$rport/ok" \
    || { record "$F.verdict" "n/a (no webhook destination)"; stop_receiver "$rport"; return; }
  log "$svc: kill -9 fault, $N_EVENTS events ($LANES owners)"
  load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$T_KEYS" "${CREATE_BODY[$svc]}" "$N_EVENTS" "$USERS" 300 \
    "$LOGS/kill9-load-$svc.tsv" 0 400 >"$LOGS/kill9-load-$svc.out" 2>&1 &
  local lpid=$!
  local target=$(( N_EVENTS / 4 )) t0; t0=$(date +%s)
  while [ "$(receiver_unique "$rport" || echo 0)" -lt "$target" ] && [ $(( $(date +%s) - t0 )) -lt 180 ]; do sleep 0.1; done
  local before; before=$(receiver_unique "$rport")
  local tk; tk=$(date +%s)
  stop_service "$svc" "$port" 9
  log "$svc: killed (-9) after $before deliveries; restarting"
  start_service "$svc" "$port"; local ms=$READY_MS
  wait "$lpid"
  local ok; ok=$(grep -c $'\t2[0-9][0-9]\t' "$LOGS/kill9-load-$svc.tsv")
  wait_delivered "$svc" "$T_OWNERS" "$LOGS/recv-kill9-$svc.log" "$LOGS/kill9-expected-$svc.tsv" 240 \
    || log "$svc: not every event arrived within 240 s after the restart"
  local complete=$(( $(date +%s) - tk ))
  sleep 2
  stop_receiver "$rport"
  expected_deliveries "$svc" "$T_OWNERS" "$LOGS/kill9-expected-$svc.tsv"
  eval "$(python3 "$BENCH/tools/analyze.py" delivery "$LOGS/kill9-expected-$svc.tsv" "$LOGS/recv-kill9-$svc.log" /ok | sed 's/^/D_/')"
  record "$F.checked" "${D_expected:-0} events committed (${ok} creations answered 2xx), killed after $before deliveries, restart→ready ${ms} ms"
  record "$F.lost" "${D_lost:-n/a}"; record "$F.duplicates" "${D_duplicates:-n/a}"
  record "$F.other" "delivered ${D_delivered:-0}, still queued at the bound ${D_still_pending:-n/a}; all delivered ${complete} s after the kill"
  if [ "${D_lost:-1}" = 0 ] && [ "${D_still_pending:-1}" = 0 ] && [ "${D_expected:-0}" -ge "$ok" ] && [ "$ok" -gt 0 ]; then record "$F.verdict" "PASS"; else record "$F.verdict" "FAIL"; fi
  unset "${!D_@}"
}

fault_pg_restart() {
  local svc=$1 port=${PORT[$1]} owner key F="fault.pgrestart.$1"
  record "$F.name" "Postgres restart during creations"
  read -r owner key < <(tenant "$svc" "$port" "bench-pgrestart") || true
  [ -n "${key:-}" ] || { record "$F.verdict" "n/a"; return; }
  local rate=100 n=$(( 100 * PG_RESTART_SECONDS ))
  log "$svc: Postgres restart during $PG_RESTART_SECONDS s of creations at $rate/s"
  load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$key" "${CREATE_BODY[$svc]}" "$n" "$USERS" $(( PG_RESTART_SECONDS + 20 )) \
    "$LOGS/pgrestart-load-$svc.tsv" "$rate" >"$LOGS/pgrestart-load-$svc.out" 2>&1 &
  local lpid=$!
  sleep $(( PG_RESTART_SECONDS / 3 ))
  local r0 r1; r0=$(now_ms); pg_restart; r1=$(now_ms)
  wait "$lpid"
  sql "SELECT id FROM ${OBJ_TABLE[$svc]} WHERE ${OWNER_COL[$svc]} = '$owner'" > "$LOGS/pgrestart-present-$svc.txt"
  eval "$(python3 "$BENCH/tools/analyze.py" loadcheck "$LOGS/pgrestart-load-$svc.tsv" "$LOGS/pgrestart-present-$svc.txt" | sed 's/^/L_/')"
  local after; after=$(awk -F'\t' -v t="$r1" '$1 > t + 1000 && $2 ~ /^2/' "$LOGS/pgrestart-load-$svc.tsv" | wc -l)
  # one more creation after the load: the service answers without having been restarted
  local probe; probe=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port${CREATE_PATH[$svc]}" \
    -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -H "Idempotency-Key: probe-$(date +%s%N)" \
    -d "${CREATE_BODY[$svc]//\{n\}/probe}")
  record "$F.checked" "${L_answered_2xx:-0} creations answered 2xx; restart took $(( r1 - r0 )) ms; statuses ${L_statuses:-}"
  record "$F.lost" "${L_missing:-n/a}"
  record "$F.other" "2xx answers after the restart: $after; probe after load: $probe"
  if [ "${L_missing:-1}" = 0 ] && [ "$after" -gt 0 ] && [ "${probe:0:1}" = 2 ]; then record "$F.verdict" "PASS"; else record "$F.verdict" "FAIL"; fi
  unset "${!L_@}"
}

metric_success() { # port -> webhook_deliveries_total success counter
  curl -fs "http://127.0.0.1:$1/q/metrics" 2>/dev/null | awk '/^webhook_deliveries_total/ && /outcome="success"/ {s += $2} END {printf "%d", s}'
}

fault_replicas() {
  local svc=$1 port=${PORT[$1]} rport owner key F="fault.replicas.$1"
  next_rport; rport=$RPORT
  record "$F.name" "two replicas, one outbox"
  start_service "$svc" "${REPLICA_PORT[$svc]}"; local rms=$READY_MS
  [ "$rms" != "n/a" ] || { record "$F.verdict" "n/a (replica did not start)"; return; }
  start_receiver "$rport" "$LOGS/recv-replicas-$svc.log" 900 || return
  tenants "$svc" "$port" "bench-replicas" "$LANES" "http://127.0.0.1:$rport/ok?delay=20" \
    || { record "$F.verdict" "n/a"; stop_receiver "$rport"; stop_service "$svc" "${REPLICA_PORT[$svc]}"; return; }
  local m1 m2; m1=$(metric_success "$port"); m2=$(metric_success "${REPLICA_PORT[$svc]}")
  log "$svc: two replicas, $N_REPLICA events"
  load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$T_KEYS" "${CREATE_BODY[$svc]}" "$N_REPLICA" "$USERS" 200 "$LOGS/replicas-load-$svc.tsv" >/dev/null
  local ok; ok=$(grep -c $'\t2[0-9][0-9]\t' "$LOGS/replicas-load-$svc.tsv")
  wait_unique "$rport" "$ok" 240 || log "$svc: not every event arrived (replicas)"
  wait_delivered "$svc" "$T_OWNERS" "$LOGS/recv-replicas-$svc.log" "$LOGS/replicas-expected-$svc.tsv" 90 || true
  sleep 2
  local d1 d2; d1=$(( $(metric_success "$port") - m1 )); d2=$(( $(metric_success "${REPLICA_PORT[$svc]}") - m2 ))
  stop_receiver "$rport"; stop_service "$svc" "${REPLICA_PORT[$svc]}"
  expected_deliveries "$svc" "$T_OWNERS" "$LOGS/replicas-expected-$svc.tsv"
  eval "$(python3 "$BENCH/tools/analyze.py" delivery "$LOGS/replicas-expected-$svc.tsv" "$LOGS/recv-replicas-$svc.log" /ok | sed 's/^/D_/')"
  record "$F.checked" "${D_expected:-0} events; successful sends by replica A/B: $d1/$d2 (all destinations of the run)"
  record "$F.lost" "${D_lost:-n/a}"; record "$F.duplicates" "${D_duplicates:-n/a}"
  record "$F.other" "concurrent sends of one event: ${D_overlaps:-n/a}; still queued at the bound: ${D_still_pending:-n/a}"
  if [ "${D_lost:-1}" = 0 ] && [ "${D_still_pending:-1}" = 0 ] && [ "${D_overlaps:-1}" = 0 ] && [ "$ok" -gt 0 ]; then record "$F.verdict" "PASS"; else record "$F.verdict" "FAIL"; fi
  unset "${!D_@}"
}

fault_bad_receivers() {
  local svc=$1 port=${PORT[$1]} rport F="fault.badrecv.$1"
  next_rport; rport=$RPORT
  record "$F.name" "hanging/slow/redirecting/resetting receivers"
  local base="http://127.0.0.1:$rport" reset="http://127.0.0.1:$((rport + 1))/reset"
  start_receiver "$rport" "$LOGS/recv-bad-$svc.log" 900 || return
  local keys="" owners="" o k
  case $svc in
    wallet)   # at most 3 addresses per project: two projects, each with one good address
      read -r o k < <(tenant wallet "$port" bench-bad-a "$base/ok" "$base/hang" "$base/slow") || true; keys="$k"; owners="'$o'"
      read -r o k < <(tenant wallet "$port" bench-bad-b "$base/redirect" "$reset" "$base/ok") || true; keys="$keys,$k"; owners="$owners,'$o'" ;;
    checkout)
      read -r o k < <(tenant checkout "$port" bench-bad "$base/ok" "$base/hang" "$base/slow" "$base/redirect" "$reset") || true
      keys="$k"; owners="'$o'" ;;
    kyc)      # one webhook_url per application: five applications
      for u in "$base/ok" "$base/hang" "$base/slow" "$base/redirect" "$reset"; do
        read -r o k < <(tenant kyc "$port" bench-bad "$u") || true
        keys="${keys:+$keys,}$k"; owners="${owners:+$owners,}'$o'"
      done ;;
  esac
  [[ "$keys" != *,, && -n "${k:-}" ]] || { record "$F.verdict" "n/a"; stop_receiver "$rport"; return; }
  log "$svc: bad receivers, $N_BAD events"
  load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$keys" "${CREATE_BODY[$svc]}" "$N_BAD" 4 120 "$LOGS/bad-load-$svc.tsv" >/dev/null
  expected_deliveries "$svc" "$owners" "$LOGS/bad-expected-$svc.tsv"
  local good; good=$(awk -F'\t' '$3 ~ /\/ok$/' "$LOGS/bad-expected-$svc.tsv" | wc -l)
  local t0; t0=$(date +%s)
  while :; do
    local n; n=$(awk -F'\t' '$2 == "/ok"' "$LOGS/recv-bad-$svc.log" 2>/dev/null | cut -f3 | sort -u | wc -l)
    [ "$n" -ge "$good" ] && break
    [ $(( $(date +%s) - t0 )) -ge 120 ] && break
    sleep 0.5
  done
  sleep 1
  stop_receiver "$rport"
  eval "$(python3 "$BENCH/tools/analyze.py" delivery "$LOGS/bad-expected-$svc.tsv" "$LOGS/recv-bad-$svc.log" /ok | sed 's/^/D_/')"
  local bad; bad=$(awk -F'\t' '$2 != "/ok"' "$LOGS/recv-bad-$svc.log" | wc -l)
  record "$F.checked" "${D_expected:-0} deliveries to the good address(es) among $(wc -l < "$LOGS/bad-expected-$svc.tsv") (bad ones received $bad attempts)"
  record "$F.lost" "${D_lost:-n/a}"; record "$F.duplicates" "${D_duplicates:-n/a}"
  record "$F.other" "good address: commit→arrival p50 ${D_lat_p50_ms:-n/a} ms, p99 ${D_lat_p99_ms:-n/a} ms, max ${D_lat_max_ms:-n/a} ms"
  if [ "${D_lost:-1}" = 0 ] && [ "${D_still_pending:-1}" = 0 ] && [ "${D_expected:-0}" -gt 0 ] && python3 -c "import sys; sys.exit(0 if float('${D_lat_p99_ms:-1e9}') <= $BAD_P99_LIMIT_MS else 1)"; then
    record "$F.verdict" "PASS"
  else
    record "$F.verdict" "FAIL (good address stalled or lost: p99 > ${BAD_P99_LIMIT_MS} ms)"
  fi
  unset "${!D_@}"
}

# The event feed, per service: N_FEED events at FEED_RATE/s through the creation API to LANES owners with one pull
# address each, every owner's feed followed by one held read (FeedLatency); then FEED_IDLE held reads of one owner with
# nothing to read for FEED_IDLE_SECONDS: the service's RSS before and while they wait, and its CPU per second meanwhile.
feed_speed() {
  local svc=$1 port=${PORT[$1]} out spid r0 c0 idle
  tenants "$svc" "$port" "bench-feed" "$LANES" pull || { record "note.$svc.feed" "$svc: pull addresses could not be registered"; return; }
  log "$svc: feed: $N_FEED events at $FEED_RATE/s after 15 s of warm-up, $LANES owners each followed by a held read"
  out=$(FEED_SERIES="$LOGS/feed-series-$svc.tsv" java -Xmx256m -cp "$TOOLS_CP" FeedLatency latency "http://127.0.0.1:$port" "$T_KEYS" "${CREATE_PATH[$svc]}" \
    "${CREATE_BODY[$svc]}" "$N_FEED" "$FEED_RATE" "${CREATED_EVENT[$svc]}" "$((FEED_RATE * 15))" 2>>"$LOGS/feed-$svc.err")
  log "$svc: feed: $out"
  record "feed.$svc.rate" "$FEED_RATE"
  for kv in $out; do record "feed.$svc.${kv%%=*}" "${kv#*=}"; done
  spid=${SVC_PID[$svc:$port]}
  r0=$(rss_mib "$spid")
  log "$svc: feed: $FEED_IDLE held reads for ${FEED_IDLE_SECONDS}s"
  java -Xmx256m -cp "$TOOLS_CP" FeedLatency idle "http://127.0.0.1:$port" "${T_KEYS%%,*}" "$FEED_IDLE" "$FEED_IDLE_SECONDS" \
    >"$LOGS/feed-idle-$svc.out" 2>&1 &
  idle=$!
  # held only (the reads were opened together and are asked again when their 30 s wait ends), then the re-asks
  sleep 8
  c0=$(cpu_ms "$spid")
  sleep 18
  local c1; c1=$(cpu_ms "$spid")
  record "feed.$svc.idle_cpu_ms_per_s" "$(( (c1 - c0) / 18 ))"
  record "feed.$svc.idle_rss_held_mib" "$(rss_mib "$spid")"
  sleep $((FEED_IDLE_SECONDS - 26))
  record "feed.$svc.reask_cpu_ms_per_1000" "$(( $(cpu_ms "$spid") - c1 ))"
  record "feed.$svc.idle_rss_before_mib" "$r0"
  wait "$idle"
  record "feed.$svc.idle_held" "$(sed -nE 's/.*held=([0-9]+).*/\1/p' "$LOGS/feed-idle-$svc.out")"
  log "$svc: feed idle: $(tail -1 "$LOGS/feed-idle-$svc.out")"
}

if [ -z "${SKIP_FEED:-}" ] && [ -z "${DELIVERY_ONLY:-}" ]; then
  for svc in "${ACTIVE[@]}"; do
    [ -n "${UP[$svc]:-}" ] || continue
    pg_top_reset; feed_speed "$svc"; pg_top "$LOGS/pg-top-feed-$svc.txt"
  done
fi

if [ -z "${SKIP_FAULTS:-}" ] && [ -z "${DELIVERY_ONLY:-}" ] && [ -z "${FEED_ONLY:-}" ]; then
  for svc in "${ACTIVE[@]}"; do [ -n "${UP[$svc]:-}" ] && fault_bad_receivers "$svc"; done
  for svc in "${ACTIVE[@]}"; do [ -n "${UP[$svc]:-}" ] && fault_replicas "$svc"; done
  for svc in "${ACTIVE[@]}"; do [ -n "${UP[$svc]:-}" ] && fault_pg_restart "$svc"; done
  for svc in "${ACTIVE[@]}"; do [ -n "${UP[$svc]:-}" ] && fault_kill9 "$svc"; done
fi

if [ -z "${SKIP_FAULTS:-}" ] && [ -z "${DELIVERY_ONLY:-}" ] && [ -z "${FEED_ONLY:-}" ] && [ -z "${POD_ONLY:-}" ]; then
  # the fault table now: the steps left (pod, start→ready) only measure
  python3 "$BENCH/tools/analyze.py" report "$RESULTS" "$BENCH/results/latest.md" | sed -n '/^## Faults/,/^## Notes/p' | grep -v '^## Notes'
fi

[ -n "${HA:-}" ] && failover_run

# ------------------------------------------------------------------ RSS after load in the pod profile
# Each service started again on its replica port with the images' JVM options (POD_JAVA_OPTS, whatever JAVA_OPTS
# the run used), creations then reads by USERS clients for POD_SECONDS (10) each, their events delivered to a receiver:
# its RSS then, against the pods' budget, and its start→ready with those options.
pod_rss() {
  local svc=$1 port=${REPLICA_PORT[$1]} rport owner key secs=${POD_SECONDS:-10}
  JAVA_OPTS=$POD_JAVA_OPTS start_service "$svc" "$port" || { record "note.$svc.pod" "$svc did not start with the pod options"; return; }
  record "pod.$svc.ready_ms" "$READY_MS"
  next_rport; rport=$RPORT
  start_receiver "$rport" "$LOGS/recv-pod-$svc.log" 900 || { stop_service "$svc" "$port"; return; }
  read -r owner key < <(tenant "$svc" "$port" "bench-pod" "http://127.0.0.1:$rport/ok") || true
  if [ -n "${key:-}" ]; then
    log "$svc: pod profile: ${secs}s of creations, ${secs}s of reads, $USERS clients"
    load "http://127.0.0.1:$port${CREATE_PATH[$svc]}" "$key" "${CREATE_BODY[$svc]}" 1000000 "$USERS" "$secs" "$LOGS/pod-create-$svc.tsv" >"$LOGS/pod-create-$svc.out" 2>&1
    { echo id; sql "SELECT id FROM ${OBJ_TABLE[$svc]} WHERE ${OWNER_COL[$svc]} = '$owner' LIMIT 5000"; } > "$LOGS/pod-ids-$svc.csv"
    load "http://127.0.0.1:$port${READ_PATH[$svc]}" "$key" "GET:$LOGS/pod-ids-$svc.csv" 1000000 "$USERS" "$secs" "$LOGS/pod-read-$svc.tsv" >"$LOGS/pod-read-$svc.out" 2>&1
    record "pod.$svc.rss_load_mib" "$(rss_mib "${SVC_PID[$svc:$port]}")"
    # what the pod holds once the load has passed: the images' -XX:TrimNativeHeapInterval=5000 gives the C library's
    # freed memory (the JIT compiler's scratch arenas of the last seconds) back within 5 s
    sleep "${POD_SETTLE:-6}"
    record "pod.$svc.rss_mib" "$(rss_mib "${SVC_PID[$svc:$port]}")"
    log "$svc: pod profile: RSS right after load $(grep "^pod.$svc.rss_load_mib=" "$RESULTS" | cut -d= -f2) MiB, ${POD_SETTLE:-6} s later $(rss_mib "${SVC_PID[$svc:$port]}") MiB"
    # with -XX:NativeMemoryTracking=summary in POD_EXTRA_OPTS: where that RSS goes, by the JVM's own account
    { jcmd "${SVC_PID[$svc:$port]}" VM.native_memory summary; grep -E '^Rss' "/proc/${SVC_PID[$svc:$port]}/status"
      awk '/^[0-9a-f]+-[0-9a-f]+ / {name=$6} /^Rss:/ {rss[name]+=$2} END {for (n in rss) printf "%8d kB %s\n", rss[n], n}' \
        "/proc/${SVC_PID[$svc:$port]}/smaps" | sort -rn | head -15; } >"$LOGS/pod-nmt-$svc.txt" 2>&1 || true
    record "pod.$svc.rss_split" "$(awk '/^Rss(Anon|File|Shmem)/ {printf "%s=%.0f ", $1, $2/1024}' "/proc/${SVC_PID[$svc:$port]}/status")"
  else
    record "note.$svc.pod" "$svc: operator API did not create credentials (pod profile)"
  fi
  stop_receiver "$rport"; stop_service "$svc" "$port"
}
if { [ -z "${SKIP_POD:-}" ] && [ -z "${DELIVERY_ONLY:-}" ] && [ -z "${FEED_ONLY:-}" ] && [ -z "${HA:-}" ] && [ -z "${STARTUP_ONLY:-}" ]; } || [ -n "${POD_ONLY:-}" ]; then
  record meta.pod_seconds "${POD_SECONDS:-10}"; record meta.pod_settle "${POD_SETTLE:-6}"
  for svc in "${ACTIVE[@]}"; do [ -n "${UP[$svc]:-}" ] && pod_rss "$svc"; done
fi

# ------------------------------------------------------------------ start → ready and RSS, with and without the cache
# deploy/measure-startup.sh against this run's migrated schema, on ports of its own, every variant this machine can
# run (JDK 17 fast-jar; JDK 25 fast-jar; JDK 25 with the AOT cache when the build wrote app.aot), in this same run.
startup_table() {
  local mods=() s out="$LOGS/startup.out"
  for s in "${ACTIVE[@]}"; do mods+=("${MODULE[$s]}"); done
  log "start→ready and RSS: deploy/measure-startup.sh, $STARTUP_RUNS runs per variant, migrated schema (at start / by the Job)"
  if ! DB_REACTIVE_URL="postgresql://127.0.0.1:$PGPORT/platform" DB_JDBC_URL="jdbc:postgresql://127.0.0.1:$PGPORT/platform" \
      DB_USER=postgres DB_PASSWORD= PLATFORM_ENCRYPTION_KEY="$PLATFORM_ENCRYPTION_KEY" KYC_PROOF_SIGNING_KEY="$KYC_PROOF_SIGNING_KEY" \
      WEBHOOKS_DELIVER=false RUNS="$STARTUP_RUNS" SCHEMA="migrated job" PORT_BASE=$((18300 + OFF)) JAVA_OPTS="$JAVA_OPTS" \
      "$ROOT/deploy/measure-startup.sh" "${mods[@]}" >"$out" 2>&1; then
    record note.startup "deploy/measure-startup.sh failed: $(tail -1 "$out")"; return
  fi
  # summary lines: module variant schema min / median (ready ms, RSS at ready, RSS after 200 requests)
  sed -n '/^summary/,$p' "$out" | tail -n +3 | while read -r mod variant schema r1 _ r2 a1 _ a2 l1 _ l2; do
    [ "$schema" = job ] && variant="$variant-job"
    for s in "${ACTIVE[@]}"; do
      [ "${MODULE[$s]}" = "$mod" ] || continue
      record "startup.$s.$variant.ready_ms" "$r1 / $r2"; record "startup.$s.$variant.rss_ready_mib" "$a1 / $a2"
      record "startup.$s.$variant.rss_load_mib" "$l1 / $l2"
    done
  done
  record meta.startup_runs "$STARTUP_RUNS"
}
if { [ -z "${SKIP_STARTUP:-}" ] && [ -z "${DELIVERY_ONLY:-}" ] && [ -z "${FEED_ONLY:-}" ]; } || [ -n "${STARTUP_ONLY:-}" ]; then
  startup_table
fi

# ------------------------------------------------------------------ report
record meta.load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [ -n "${MERGE_FROM:-}" ] && [ -f "$MERGE_FROM" ]; then
  # figures of an earlier run for what this run skipped; this run's figures win (later lines override)
  record meta.merged "figures not measured in this run come from the run of $(awk -F= '$1=="meta.date"{print $2}' "$MERGE_FROM")"
  grep -v '^meta\.' "$MERGE_FROM" > "$RESULTS.merged"; cat "$RESULTS" >> "$RESULTS.merged"; RESULTS="$RESULTS.merged"
fi
[ -n "${HA:-}" ] || python3 "$BENCH/tools/analyze.py" report "$RESULTS" "$BENCH/results/latest.md"
if [ -f "$BENCH/results/profile-latest.txt" ] && [ -z "${SKIP_SPEED:-}" ] && [ -z "${DELIVERY_ONLY:-}" ]; then
  { echo; echo "## Profile of the slowest ratio ($(grep '^profile.target=' "$RESULTS" | tail -1 | cut -d= -f2), JFR execution samples)"; echo; echo '```'; head -60 "$BENCH/results/profile-latest.txt"; echo '```'; } \
    | tee -a "$BENCH/results/latest.md"
fi
if [ -n "$(grep '^meta.profile_all=' "$RESULTS")" ]; then
  { echo; echo "## Where each service's creation and read spend their CPU (JFR, ${SECONDS_PHASE} s each; benchmarks/results/profile-<service>-<kind>.txt)"; echo
    for psvc in "${ACTIVE[@]}"; do for pkind in create read; do
      f="$LOGS/profile-$psvc-$pkind.txt"; [ -f "$f" ] || continue
      python3 "$BENCH/tools/analyze.py" jfr-line "$f" "$psvc $pkind"
    done; done; } | tee -a "$BENCH/results/latest.md"
fi
echo; echo "raw figures and logs: $LOGS"

}

main "$@"; exit $?
