#!/usr/bin/env bash
# FLOOD_MODE=keys: instead, FLOOD (2,000) requests of an ordinary API call at once, each with a random well-formed key
# of the service (kyc_test_…, co_test_…, gw_test_…), from FLOOD_CLIENTS (1) loopback addresses (127.0.0.2, …), with
# the same probes. JARS_FROM: the checkout whose fast-jars run (default: this one).
#
# The feed under a flood of held reads from one key, per service: FLOOD (2,000) reads with wait=30 opened at once by one
# test key, and meanwhile, every 250 ms for FLOOD_SECONDS (20), another tenant's feed read, an ordinary API call of that
# tenant and /q/health/ready, each timed from a second process, which makes the same calls for FLOOD_PROBE_WARMUP (2)
# s, uncounted, before each flood starts (its own HTTP client warmed, and the tenant one already using the service). The service's CPU while probed is counted by thread. FLOOD_ROUNDS (2) floods one after the other: the first
# meets a service just started (nothing compiled yet), the next one a service that has served traffic. Counts the flood's answers by status, the probes' 5xx and unanswered, the
# ERROR lines the service logged and the connections Postgres refused during the phase. Prints a table and writes it
# to benchmarks/results/flood-latest.md. Its own throwaway Postgres (port 5544 + BENCH_PORT_OFFSET) and fast-jars, the
# services' default limits, as benchmarks/run.sh starts them.
#
#   benchmarks/flood.sh     (SERVICES_ONLY="wallet", FLOOD, FLOOD_WAIT, FLOOD_SECONDS, FLOOD_ROUNDS, FLOOD_SETTLE: seconds idle
#                            before each flood, 0)
# Needs what benchmarks/run.sh needs; the jars: ./mvnw -B -pl kyc-service,checkout-service,wallet-gateway -am package -DskipTests
set -uo pipefail

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=${JARS_FROM:-$(dirname "$BENCH")}
FLOOD_MODE=${FLOOD_MODE:-feed}
FLOOD_CLIENTS=${FLOOD_CLIENTS:-1}
FLOOD=${FLOOD:-2000}
FLOOD_WAIT=${FLOOD_WAIT:-30}
FLOOD_SECONDS=${FLOOD_SECONDS:-20}
FLOOD_ROUNDS=${FLOOD_ROUNDS:-2}
JAVA_OPTS=${JAVA_OPTS:--Xmx512m}
KYC_RATE=${KYC_RATE:-100000}
# shellcheck source=lib/common.sh
source "$BENCH/lib/common.sh"
bench_workspace platform-flood "flood-$(date +%Y%m%d-%H%M%S)"
ACTIVE=("${SERVICES[@]}")
[ -n "${SERVICES_ONLY:-}" ] && read -r -a ACTIVE <<< "$SERVICES_ONLY"
declare -gA KEY_PREFIX=([kyc]=kyc_test_ [checkout]=co_test_ [wallet]=gw_test_)
declare -gA PROBE_PATH=([kyc]=/api/v1/subjects/u-flood/status [checkout]=/api/v1/payment_intents?limit=1 [wallet]=/api/v1/payments?limit=1)

cleanup() {
  trap - EXIT INT TERM
  for k in "${!SVC_PID[@]}"; do stop_service "${k%%:*}" "${k##*:}"; done
  pg_stop
  cp -f "${PGLOG:-/nonexistent}" "$LOGS/" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

fresh_secrets
build_tools || { echo "could not compile the tools" >&2; exit 1; }
log "initdb + start Postgres on 127.0.0.1:$PGPORT"
pg_init || exit 1
record meta.date "$(date -u +%Y-%m-%dT%H:%MZ)"
record meta.nproc "$(nproc)"
record meta.load_start "$(cut -d' ' -f1-3 /proc/loadavg)"

# thread_cpu pid -> "name ticks" per thread (utime + stime), names with their numbers stripped (vert.x-eventloop-thread)
thread_cpu() {
  for t in /proc/"$1"/task/*; do
    awk '{ name = $0; sub(/^[^(]*\(/, "", name); sub(/\).*$/, "", name); gsub(/[- ]?[0-9]+$/, "", name); gsub(/ /, "_", name)
           rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " "); print name, f[12] + f[13] }' "$t/stat" 2>/dev/null
  done | awk '{ cpu[$1] += $2 } END { for (n in cpu) print n, cpu[n] }'
}

# cpu_delta before after -> the service's CPU ms between two thread_cpu snapshots, by thread group, largest first
cpu_delta() {
  local hz; hz=$(getconf CLK_TCK)
  awk -v hz="$hz" 'NR == FNR { before[$1] = $2; next } { d = ($2 - before[$1]) * 1000 / hz; if (d > 0) { total += d; by[$1] = d } }
    END { printf "total=%d", total; n = 0; PROCINFO["sorted_in"] = "@val_num_desc"; for (k in by) if (n++ < 6) printf ",%s=%d", k, by[k] }' "$1" "$2"
}

flood() {
  local svc=$1 port=${PORT[$1]} flooder other out log0 pg0 errors refused round col floodpid probepid
  start_service "$svc" "$port" || { record "flood.$svc.note" "did not start"; return; }
  read -r _ flooder < <(tenant "$svc" "$port" "bench-flooder" pull)
  read -r _ other < <(tenant "$svc" "$port" "bench-neighbour" pull)
  [ -n "${flooder:-}" ] && [ -n "${other:-}" ] || { record "flood.$svc.note" "tenants could not be registered"; return; }
  for round in $(seq 1 "$FLOOD_ROUNDS"); do
    col="$svc#$round"
    [ "${FLOOD_SETTLE:-0}" -gt 0 ] && sleep "$FLOOD_SETTLE"
    log0=$(wc -l < "$LOGS/$svc-$port.log"); pg0=$(wc -l < "$PGLOG")
    record "flood.$col.uptime" "$(uptime | sed 's/.*load average: //')"
    # the probing JVM first warms its own HTTP client for FLOOD_PROBE_WARMUP s (uncounted), then the flood starts
    rm -f "$LOGS/probing-$col"
    java -Xmx128m -Dseries="$LOGS/series-$col.tsv" -Dwarmup="${FLOOD_PROBE_WARMUP:-2}" -Dready="$LOGS/probing-$col" \
      -cp "$TOOLS_CP" FeedFlood probe "http://127.0.0.1:$port" "$other" "${PROBE_PATH[$svc]}" "$FLOOD_SECONDS" \
      > "$LOGS/probe-$col.out" 2>>"$LOGS/flood-$svc.err" &
    probepid=$!
    for _ in $(seq 1 300); do [ -f "$LOGS/probing-$col" ] && break; sleep 0.1; done
    nstat -n >/dev/null 2>&1 || true
    thread_cpu "${SVC_PID[$svc:$port]}" > "$LOGS/cpu-$col.before"
    if [ "$FLOOD_MODE" = keys ]; then
      log "$svc, flood $round: $FLOOD requests with random keys from $FLOOD_CLIENTS addresses; probes for ${FLOOD_SECONDS}s from another process"
      java -Xmx512m -cp "$TOOLS_CP" FeedFlood keys "http://127.0.0.1:$port" "${KEY_PREFIX[$svc]}" "${PROBE_PATH[$svc]}" \
        "$FLOOD" "$FLOOD_CLIENTS" > "$LOGS/flood-$col.out" 2>>"$LOGS/flood-$svc.err" &
    else
      log "$svc, flood $round: $FLOOD reads with wait=$FLOOD_WAIT from one key; probes for ${FLOOD_SECONDS}s from another process"
      java -Xmx512m -cp "$TOOLS_CP" FeedFlood flood "http://127.0.0.1:$port" "$flooder" "$FLOOD" "$FLOOD_WAIT" \
        > "$LOGS/flood-$col.out" 2>>"$LOGS/flood-$svc.err" &
    fi
    floodpid=$!
    wait "$probepid"
    out=$(cat "$LOGS/probe-$col.out")
    wait "$floodpid"
    thread_cpu "${SVC_PID[$svc:$port]}" > "$LOGS/cpu-$col.after"
    record "flood.$col.cpu_ms" "$(cpu_delta "$LOGS/cpu-$col.before" "$LOGS/cpu-$col.after")"
    # the kernel's side of the flood's connections: accept queue overflows and SYNs sent again (1 s each)
    record "flood.$col.tcp" "$(nstat 2>/dev/null | awk '/ListenOverflows|ListenDrops|ReqQFull|TCPSynRetrans|TCPTimeouts/ {printf "%s=%s,", $1, $2}')"
    out="$(cat "$LOGS/flood-$col.out") $out"
    log "$svc, flood $round: $out"
    for kv in $out; do record "flood.$col.${kv%%=*}" "${kv#*=}"; done
    errors=$(tail -n +"$((log0 + 1))" "$LOGS/$svc-$port.log" | grep -cE '"level":"ERROR"| ERROR ' || true)
    refused=$(tail -n +"$((pg0 + 1))" "$PGLOG" | grep -ciE 'too many clients|remaining connection slots' || true)
    record "flood.$col.error_lines" "$errors"
    record "flood.$col.pg_refused" "$refused"
  done
  stop_service "$svc" "$port"
}

for svc in "${ACTIVE[@]}"; do flood "$svc"; done
record meta.load_end "$(cut -d' ' -f1-3 /proc/loadavg)"

TABLE="$BENCH/results/flood-latest.md"
[ "$FLOOD_MODE" = keys ] && TABLE="$BENCH/results/flood-keys-latest.md"
python3 - "$RESULTS" "$TABLE" "$FLOOD_MODE" <<'PY'
import sys
kv = {}
for line in open(sys.argv[1]):
    k, _, v = line.rstrip("\n").partition("=")
    kv[k] = v
svcs = [f"{s}#{r}" for s in ("kyc", "checkout", "wallet") for r in range(1, 10) if f"flood.{s}#{r}.flood" in kv]
g = lambda s, k: kv.get(f"flood.{s}.{k}", "0")
keys = sys.argv[3] == "keys"
fives = lambda s: str(sum(int(v) for k, v in kv.items() if k.startswith(f"flood.{s}.flood_5")))
rows = [
    ("requests with random keys (client addresses)", lambda s: f"{g(s,'flood')} ({g(s,'clients')})"),
    ("flood answers: 401 / 429 / 5xx / other", lambda s: " / ".join([g(s, "flood_401"), g(s, "flood_429"), fives(s),
        str(sum(int(v) for k, v in kv.items() if k.startswith(f"flood.{s}.flood_") and k.split(".")[-1] not in
            ("flood_401", "flood_429", "flood_seconds") and not k.split(".")[-1].startswith("flood_5")))])),
] if keys else [
    ("held reads from one key (wait)", lambda s: f"{g(s,'flood')} (wait={g(s,'wait')})"),
    ("flood answers: 200 / 429 / 5xx / failed", lambda s: " / ".join([g(s, "flood_200"), g(s, "flood_429"),
        str(sum(int(v) for k, v in kv.items() if k.startswith(f"flood.{s}.flood_5"))),
        str(sum(int(v) for k, v in kv.items() if k.startswith(f"flood.{s}.flood_") and not k.split("_")[-1].isdigit()
            and k.split(".")[-1] not in ("flood_seconds",)))])),
]
rows += [
    ("another tenant's feed read p50 / p95 / p99 / max (n; over 1 s; 5xx; unanswered)", lambda s: f"{g(s,'other_feed_p50_ms')} / {g(s,'other_feed_p95_ms')} / {g(s,'other_feed_p99_ms')} / {g(s,'other_feed_max_ms')} ms ({g(s,'other_feed_n')}; {g(s,'other_feed_over_1s')}; {g(s,'other_feed_5xx')}; {g(s,'other_feed_unanswered')})"),
    ("an ordinary API call p50 / p95 / p99 / max (n; over 1 s; 5xx; unanswered)", lambda s: f"{g(s,'api_call_p50_ms')} / {g(s,'api_call_p95_ms')} / {g(s,'api_call_p99_ms')} / {g(s,'api_call_max_ms')} ms ({g(s,'api_call_n')}; {g(s,'api_call_over_1s')}; {g(s,'api_call_5xx')}; {g(s,'api_call_unanswered')})"),
    ("/q/health/ready p50 / p95 / p99 / max (n; over 1 s; 5xx; unanswered)", lambda s: f"{g(s,'ready_p50_ms')} / {g(s,'ready_p95_ms')} / {g(s,'ready_p99_ms')} / {g(s,'ready_max_ms')} ms ({g(s,'ready_n')}; {g(s,'ready_over_1s')}; {g(s,'ready_5xx')}; {g(s,'ready_unanswered')})"),
    ("load average (1, 5, 15 min) at the flood's start", lambda s: g(s, "uptime")),
    ("kernel: accept-queue overflows, SYNs sent again", lambda s: g(s, "tcp").rstrip(",") or "none"),
    ("the service's CPU ms while probed, by thread (total, largest groups)", lambda s: g(s, "cpu_ms").replace(",", ", ")),
    ("ERROR lines in the service log", lambda s: g(s, "error_lines")),
    ("connections Postgres refused", lambda s: g(s, "pg_refused")),
]
out = [f"# {'Random-key' if keys else 'Feed'} flood ({kv.get('meta.date','?')}, {kv.get('meta.nproc','?')} cores, load {kv.get('meta.load_start','?')} -> {kv.get('meta.load_end','?')})", "",
       "| | " + " | ".join(s.replace("#", ", flood ") for s in svcs) + " |", "|---|" + "---|" * len(svcs)]
for name, f in rows:
    out.append(f"| {name} | " + " | ".join(f(s) for s in svcs) + " |")
text = "\n".join(out) + "\n"
open(sys.argv[2], "w").write(text)
print(text)
PY
echo "raw figures and logs: $LOGS"
