#!/usr/bin/env bash
# One command for a new user: build if needed, make sure Postgres is there, start kyc-service (8081),
# checkout-service (8082) and wallet-gateway (8083), create demo credentials, print curl examples.
# Ctrl-C stops all three.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
state="$root/.run-local"
mkdir -p "$state"
started=$(date +%s.%N)

DB_HOST=${DB_HOST:-127.0.0.1}
DB_PORT=${DB_PORT:-5432}
DB_NAME=${DB_NAME:-platform}
export DB_USER=${DB_USER:-postgres}
export DB_PASSWORD=${DB_PASSWORD:-}
export DB_REACTIVE_URL="postgresql://$DB_HOST:$DB_PORT/$DB_NAME"
export DB_JDBC_URL="jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME"

# --- Postgres: reachable, or start the local cluster when it is installed ---
if ! pg_isready -h "$DB_HOST" -p "$DB_PORT" -q 2>/dev/null; then
  if [ -d /etc/postgresql ] && command -v pg_ctlcluster >/dev/null; then
    echo "starting the local PostgreSQL cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
    for _ in $(seq 1 30); do pg_isready -h "$DB_HOST" -p "$DB_PORT" -q && break; sleep 1; done
  else
    echo "PostgreSQL is not reachable at $DB_HOST:$DB_PORT; start one (see README) and retry" >&2
    exit 1
  fi
fi
export PGPASSWORD="$DB_PASSWORD"
psql -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" postgres | grep -q 1 \
  || psql -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -c "CREATE DATABASE $DB_NAME" postgres >/dev/null
# Each service creates its own schema (kyc, checkout, wallet) with Flyway at start.

# --- Build when a jar is missing or older than the sources ---
need_build=0
for svc in kyc-service checkout-service wallet-gateway; do
  jar="$svc/target/quarkus-app/quarkus-run.jar"
  if [ ! -f "$jar" ] || [ -n "$(find "$svc/src/main" shared-webhook-signing/src/main service-support/src/main -newer "$jar" -type f -print -quit)" ]; then
    need_build=1
  fi
done
if [ "$need_build" = 1 ]; then
  echo "building (./mvnw -B -q package -DskipTests)"
  ./mvnw -B -q package -DskipTests
fi

# --- Secrets: a fresh operator token each run; keys that encrypt stored data are kept across runs ---
export ADMIN_TOKEN=${ADMIN_TOKEN:-$(openssl rand -hex 24)}
[ -f "$state/encryption.key" ] || openssl rand -base64 32 > "$state/encryption.key"
[ -f "$state/kyc-signing.key" ] || openssl genpkey -algorithm ed25519 -outform DER | base64 -w0 > "$state/kyc-signing.key"
export PLATFORM_ENCRYPTION_KEY=$(cat "$state/encryption.key")
export KYC_PROOF_SIGNING_KEY=$(cat "$state/kyc-signing.key")
export WEBHOOKS_ALLOW_PRIVATE_TARGETS=true

pids=()
stop() {
  trap - INT TERM EXIT
  echo; echo "stopping the services"
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

start() { # module port
  QUARKUS_HTTP_PORT=$2 PUBLIC_BASE_URL="http://localhost:$2" \
    java -jar "$1/target/quarkus-app/quarkus-run.jar" > "$state/$1.log" 2>&1 &
  pids+=($!)
}
start kyc-service 8081
start checkout-service 8082
start wallet-gateway 8083

for port in 8081 8082 8083; do
  for _ in $(seq 1 120); do
    curl -fs "http://localhost:$port/q/health/ready" >/dev/null 2>&1 && break
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a service died; see $state/*.log" >&2; exit 1; }; done
    sleep 0.25
  done
  curl -fs "http://localhost:$port/q/health/ready" >/dev/null || { echo "port $port not ready; see $state/*.log" >&2; exit 1; }
done
ready=$(date +%s.%N)

admin() { # port path json
  curl -fsS -X POST "http://localhost:$1$2" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d "$3"
}
field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

# the demo key is a test key: its events go to test_webhook_url, signed with test_webhook_secret
kyc_app=$(admin 8081 /admin/v1/applications '{"name":"Demo","return_urls":["https://bank.example/kyc/done"],"test_webhook_url":"http://127.0.0.1:9002/kyc"}')
kyc_app_id=$(echo "$kyc_app" | field "['id']")
kyc_webhook_secret=$(echo "$kyc_app" | field "['test_webhook_secret']")
kyc_key=$(admin 8081 "/admin/v1/applications/$kyc_app_id/keys" '{"mode":"test"}' | field "['key']")
co_app_id=$(admin 8082 /admin/v1/applications '{"name":"Demo"}' | field "['id']")
co_key=$(admin 8082 "/admin/v1/applications/$co_app_id/keys" '{"mode":"test"}' | field "['key']")
gw_project_id=$(admin 8083 /admin/v1/projects '{"name":"Demo"}' | field "['id']")
gw_key=$(admin 8083 "/admin/v1/projects/$gw_project_id/keys" '{"mode":"test"}' | field "['key']")

cat > "$state/env" <<ENV
export ADMIN_TOKEN=$ADMIN_TOKEN
export KYC_KEY=$kyc_key
export KYC_APP=$kyc_app_id
export KYC_WEBHOOK_SECRET=$kyc_webhook_secret
export CO_KEY=$co_key
export CO_APP=$co_app_id
export GW_KEY=$gw_key
export GW_PROJECT=$gw_project_id
ENV

cat <<MSG

All three services are ready ($(python3 -c "print(round($ready - $started, 1))") s after start):
  kyc-service       http://localhost:8081   (Swagger UI: http://localhost:8081/q/swagger-ui)
  checkout-service  http://localhost:8082   (Swagger UI: http://localhost:8082/q/swagger-ui)
  wallet-gateway    http://localhost:8083   (Swagger UI: http://localhost:8083/q/swagger-ui)
Logs in $state/. Private webhook targets are allowed (local demo only).

Operator token (this run only): $ADMIN_TOKEN
Demo test-mode credentials (also in $state/env — 'source .run-local/env' in another shell):
  KYC_KEY=$kyc_key
  CO_KEY=$co_key
  GW_KEY=$gw_key

Try:
  curl -s http://localhost:8081/api/v1/capabilities
  curl -s -X POST http://localhost:8082/api/v1/payment_intents -H "Authorization: Bearer $co_key" \\
       -H 'Content-Type: application/json' -d '{"amount":"250.000000","currency":"HTG"}'
  curl -s -X POST http://localhost:8083/api/v1/payments -H "Authorization: Bearer $gw_key" \\
       -H 'Content-Type: application/json' -H 'Idempotency-Key: order-1001' -d '{"amount":1000,"currency":"HTG","reference":"order-1001"}'
  curl -s http://localhost:8083/api/v1/balance -H "Authorization: Bearer $gw_key"
The README's curl tour continues from here. Ctrl-C stops all three.
MSG
wait
