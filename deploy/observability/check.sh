#!/usr/bin/env bash
# The alert rules against a real Prometheus: Debian's Prometheus on 127.0.0.1:18990 (its own data directory) scrapes the
# three services, started as deploy/local/run.sh starts them (the packaged jars, java -jar) on 18981-18983 against a
# PostgreSQL of the check's own on 127.0.0.1:18995 (the machine's binaries, a scratch cluster), with the project's rule
# files unchanged. Then it brings about:
#   (a) a webhook receiver (127.0.0.1:18984) answering 500 until wallet pauses its address: WebhookAddressFailing and
#       WebhookAddressPaused fire; the receiver is fixed and the address reactivated: both resolve;
#   (b) the database stopped for 30 s: ServiceNotReady fires for the services, then resolves once it is back;
# and prints when each alert was firing and resolved, from Prometheus's /api/v1/alerts.
# What the check sets for speed (not the rules): a 5 s scrape and evaluation interval, the services' gauges measured
# every 5 s (WEBHOOKS_MEASURE_EVERY, PLATFORM_READINESS_EVERY) and wallet's retry schedule at 10 s steps, so the 20
# failures in a row that pause an address take about 3.5 minutes instead of days (longer than the 2 min
# WebhookAddressFailing waits).
# Run it alone on the machine (it starts a JVM per service): flock /tmp/heavy.lock deploy/observability/check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$root/deploy/target/observability-check
PROM_PORT=18990 PG_PORT=18995 RECEIVER_PORT=18984
pids=()

stop_all() {
  trap - INT TERM HUP EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "${pg_bin:-}" ] && as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
}
trap stop_all INT TERM HUP EXIT

now() { date +%s; }
stamp() { date -u +%H:%M:%S; }
say() { echo "[$(stamp)] $*"; }

# --- tools: promtool/prometheus (the project's one installer), the jars, python3 for the receiver ---
promtool=$(deploy/observability/promtool.sh)
prometheus=$(dirname "$promtool")/prometheus
"$promtool" check rules deploy/observability/rules/*.yaml >/dev/null
for m in kyc-service checkout-service wallet-gateway; do
  if [ ! -f "$m/target/quarkus-app/quarkus-run.jar" ]; then
    say "building (./mvnw -B -q package -DskipTests)"; ./mvnw -B -q package -DskipTests; break
  fi
done
command -v python3 >/dev/null || { echo "python3 is needed for the receiver" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work"

# --- PostgreSQL of its own (never the machine's cluster, which others use) ---
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$pg_bin/initdb" ] || { echo "PostgreSQL's binaries are missing (apt-get install postgresql)" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
mkdir -p "$work/pg" "$work/pg-socket"
[ "$(id -u)" = 0 ] && chown postgres "$work/pg" "$work/pg-socket" && chmod 755 "$work" "$root/deploy/target"
as_pg "$pg_bin/initdb" -D "$work/pg" -U postgres -A trust >"$work/initdb.log" 2>&1
pg_start() {
  as_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $work/pg-socket" start >/dev/null
}
pg_start
java -cp "dev-postgres/target/classes:dev-postgres/target/lib/*" ht.platform.devpostgres.EmbeddedPostgresServer \
  create-database 127.0.0.1 "$PG_PORT" platform >/dev/null
say "PostgreSQL on 127.0.0.1:$PG_PORT"

# --- the three services, as run.sh starts them ---
export ADMIN_TOKEN=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
export PLATFORM_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
export KYC_PROOF_SIGNING_KEY=$(java deploy/local/Ed25519Key.java)
export WEBHOOKS_ALLOW_PRIVATE_TARGETS=true DB_USER=postgres DB_PASSWORD=
export DB_REACTIVE_URL=postgresql://127.0.0.1:$PG_PORT/platform DB_JDBC_URL=jdbc:postgresql://127.0.0.1:$PG_PORT/platform
export WEBHOOKS_MEASURE_EVERY=5s PLATFORM_READINESS_EVERY=5s
export WALLET_WEBHOOKS_RETRY_SCHEDULE=$(printf '10s,%.0s' $(seq 30) | sed 's/,$//')
start_service() { # module port
  QUARKUS_HTTP_PORT=$2 PUBLIC_BASE_URL="http://localhost:$2" java -jar "$1/target/quarkus-app/quarkus-run.jar" \
    >"$work/$1.log" 2>&1 &
  pids+=($!)
}
start_service kyc-service 18981
start_service checkout-service 18982
start_service wallet-gateway 18983
for port in 18981 18982 18983; do
  for _ in $(seq 1 480); do curl -fs "http://127.0.0.1:$port/q/health/ready" >/dev/null 2>&1 && break; sleep 0.25; done
  curl -fs "http://127.0.0.1:$port/q/health/ready" >/dev/null || { echo "port $port not ready; see $work/*.log" >&2; exit 1; }
done
say "services ready on 18981-18983"

# --- Prometheus with the project's rules ---
{
  echo "global: {scrape_interval: 5s, evaluation_interval: 5s}"
  echo "rule_files:"
  for f in "$root"/deploy/observability/rules/*.yaml; do echo "  - $f"; done
  echo "scrape_configs:"
  for pair in kyc-service:18981 checkout-service:18982 wallet-gateway:18983; do
    echo "  - {job_name: ${pair%%:*}, metrics_path: /q/metrics, static_configs: [{targets: ['127.0.0.1:${pair##*:}']}]}"
  done
} > "$work/prometheus.yml"
"$prometheus" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prometheus-data" \
  --web.listen-address=127.0.0.1:$PROM_PORT >"$work/prometheus.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null 2>&1 && break; sleep 0.5; done
say "Prometheus on 127.0.0.1:$PROM_PORT"

# alert_state NAME [JOB]: firing, pending or none
alert_state() {
  curl -fs "http://127.0.0.1:$PROM_PORT/api/v1/alerts" | python3 -c '
import json, sys
name, job = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
states = [a["state"] for a in json.load(sys.stdin)["data"]["alerts"]
          if a["labels"]["alertname"] == name and (job is None or a["labels"].get("job") == job)]
print("firing" if "firing" in states else "pending" if states else "none")' "$@"
}
# wait_for NAME JOB STATE TIMEOUT_S SINCE LABEL: waits until the alert is in STATE, prints the time since SINCE
wait_for() {
  local deadline=$(( $(now) + $4 ))
  while [ "$(alert_state "$1" "$2")" != "$3" ]; do
    [ "$(now)" -lt "$deadline" ] || { say "FAILED: $1 ($2) not $3 within $4 s"; exit 1; }
    sleep 1
  done
  say "$1 ($2) $6 after $(( $(now) - $5 )) s"
}

sleep 15
say "firing at the start (no face sidecar is started here): $(curl -fs "http://127.0.0.1:$PROM_PORT/api/v1/alerts" \
  | python3 -c 'import json,sys; print(sorted({a["labels"]["alertname"] for a in json.load(sys.stdin)["data"]["alerts"] if a["state"]=="firing"}) or "none")')"

# --- (a) a receiver that fails until its address pauses ---
touch "$work/receiver-fails"
python3 - "$RECEIVER_PORT" "$work/receiver-fails" >"$work/receiver.log" 2>&1 <<'PY' &
import http.server, os, sys
port, flag = int(sys.argv[1]), sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(500 if os.path.exists(flag) else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
pids+=($!)
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
gw=http://127.0.0.1:18983
project=$(curl -fsS -X POST "$gw/admin/v1/projects" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
  -d '{"name":"Alert check"}' | json_field id)
key=$(curl -fsS -X POST "$gw/admin/v1/projects/$project/keys" -H "Authorization: Bearer $ADMIN_TOKEN" \
  -H 'Content-Type: application/json' -d '{"mode":"test"}' | json_field key)
hook=$(curl -fsS -X POST "$gw/api/v1/webhooks" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d "{\"url\":\"http://127.0.0.1:$RECEIVER_PORT/hook\",\"events\":[\"payment.created\"]}" | json_field id)
a0=$(now)
curl -fsS -X POST "$gw/api/v1/payments" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -H "Idempotency-Key: check-$a0" -d '{"amount":1000,"currency":"HTG","reference":"alert-check"}' >/dev/null
say "(a) receiver answers 500; a payment's event goes to it (address $hook)"
wait_for WebhookAddressFailing wallet-gateway firing 400 "$a0" "firing"
wait_for WebhookAddressPaused wallet-gateway firing 400 "$a0" "firing"
wait_for WebhookAddressFailing wallet-gateway none 120 "$a0" "resolved (the address paused)"
rm -f "$work/receiver-fails"
r0=$(now)
curl -fsS -X POST "$gw/api/v1/webhooks/$hook/reactivate" -H "Authorization: Bearer $key" >/dev/null
say "(a) receiver fixed and the address reactivated"
wait_for WebhookAddressPaused wallet-gateway none 120 "$r0" "resolved"
delivered=$(grep -c '' "$work/receiver.log" || true)
say "(a) the receiver logged $delivered requests"

# --- (b) the database stopped for 30 s ---
b0=$(now)
as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null
say "(b) database stopped"
declare -A fired=() resolved=()
restarted=""
while :; do
  t=$(now)
  if [ -z "$restarted" ] && [ $(( t - b0 )) -ge 30 ]; then
    pg_start; restarted=$t; say "(b) database started again after $(( t - b0 )) s"
  fi
  for job in kyc-service checkout-service wallet-gateway; do
    state=$(alert_state ServiceNotReady "$job")
    if [ -z "${fired[$job]:-}" ] && [ "$state" = firing ]; then
      fired[$job]=$t; say "ServiceNotReady ($job) firing $(( t - b0 )) s after the stop"
    elif [ -n "${fired[$job]:-}" ] && [ -z "${resolved[$job]:-}" ] && [ "$state" = none ]; then
      resolved[$job]=$t; say "ServiceNotReady ($job) resolved $(( t - restarted )) s after the restart"
    fi
  done
  [ -n "$restarted" ] && [ "${#resolved[@]}" = 3 ] && break
  if [ -n "$restarted" ] && [ $(( t - restarted )) -gt 150 ]; then
    say "FAILED: ServiceNotReady fired for ${!fired[*]}, resolved for ${!resolved[*]}"; exit 1
  fi
  sleep 1
done
say "PASSED"
