#!/usr/bin/env bash
# One command for a new user, on a machine with only a JDK: build if needed, find or start PostgreSQL, start
# kyc-service (8081), checkout-service (8082) and wallet-gateway (8083), create demo credentials, print curl examples.
# Ctrl-C stops all three (and the embedded PostgreSQL when this script started it).
#
# PostgreSQL: the machine's when one answers on $DB_HOST:$DB_PORT (127.0.0.1:5432; database platform created when
# missing), otherwise an embedded PostgreSQL 15 (dev-postgres: zonky's binaries from Maven Central) whose data is kept
# in .run-local/postgres between runs. PLATFORM_RUN_PG=embedded|machine forces one.
# --moncash-sandbox: also start the MonCash stand-in on :8090 and point the live rail of checkout-service and
# wallet-gateway at it (each with its own business account), so live keys can pay and withdraw locally.
# Secrets and logs stay the owner's: .run-local/ is mode 700, what this script writes there 600 (an older
# .run-local/ is mended at each start). --prepare-only: only that and the secrets, then exit (PLATFORM_RUN_STATE: another directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
state="${PLATFORM_RUN_STATE:-$root/.run-local}"
umask 077 # every file this script and the services write is created the owner's only (the build and npm use 022)
mkdir -p "$state"
chmod -R go-rwx "$state" # mends a .run-local/ of an earlier run (755/644)
started=$(date +%s%N)

# --- Options (each later block reads its flag here) ---
moncash_sandbox=0 prepare_only=0
for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --moncash-sandbox) moncash_sandbox=1 ;;
    --prepare-only) prepare_only=1 ;;
    *) echo "unknown option: $arg (see --help)" >&2; exit 2 ;;
  esac
done

answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }          # host port: a TCP listener is there
json_field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }     # the string field $1 of a flat JSON answer
random_hex() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }
seconds_since() { local ns=$(( $(date +%s%N) - $1 )); printf '%d.%d' $((ns / 1000000000)) $((ns / 100000000 % 10)); }

# --- Build when a jar is missing or older than the sources ---
build_if_needed() {
  local need=0 svc jar
  [ -d dev-postgres/target/lib ] || need=1
  [ -d moncash-sandbox/target/classes ] || need=1
  for svc in kyc-service checkout-service wallet-gateway; do
    jar="$svc/target/quarkus-app/quarkus-run.jar"
    if [ ! -f "$jar" ] || [ -n "$(find "$svc/src/main" shared-webhook-signing/src/main service-support-edge/src/main service-support-outbox/src/main service-support/src/main moncash-rail/src/main moncash-quarkus/src/main -newer "$jar" -type f -print -quit)" ]; then
      need=1
    fi
  done
  if [ "$need" = 1 ]; then
    echo "building (./mvnw -B -q package -DskipTests)"
    (umask 022 && ./mvnw -B -q package -DskipTests)
  fi
}

# --- PostgreSQL ---
dev_postgres() {
  java -cp "dev-postgres/target/classes:dev-postgres/target/lib/*" ht.platform.devpostgres.EmbeddedPostgresServer "$@" 2>>"$state/dev-postgres.log" \
    || { echo "PostgreSQL could not be prepared ($*); the end of $state/dev-postgres.log:" >&2; tail -n 5 "$state/dev-postgres.log" >&2; exit 1; }
}
start_postgres() {
  DB_HOST=${DB_HOST:-127.0.0.1}
  DB_PORT=${DB_PORT:-5432}
  DB_NAME=${DB_NAME:-platform}
  export DB_USER=${DB_USER:-postgres}
  export DB_PASSWORD=${DB_PASSWORD:-}
  local mode=${PLATFORM_RUN_PG:-auto}
  if [ "$mode" = machine ] || { [ "$mode" = auto ] && answers "$DB_HOST" "$DB_PORT"; }; then
    dev_postgres create-database "$DB_HOST" "$DB_PORT" "$DB_NAME"
    pg_where="the machine's PostgreSQL on $DB_HOST:$DB_PORT"
  else
    # stops by itself once this script has exited; the data stays in .run-local/postgres
    DB_HOST=127.0.0.1 DB_USER=postgres DB_PASSWORD=
    DB_PORT=$(dev_postgres start "$state/postgres" $$ "$DB_NAME") && [ -n "$DB_PORT" ] || exit 1
    pg_where="embedded PostgreSQL 15 on 127.0.0.1:$DB_PORT (data in $state/postgres)"
  fi
  export DB_REACTIVE_URL="postgresql://$DB_HOST:$DB_PORT/$DB_NAME"
  export DB_JDBC_URL="jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME"
  # Each service creates its own schema (kyc, checkout, wallet) with Flyway at start.
}

# --- Secrets: a fresh operator token each run; keys that encrypt or sign stored data are kept across runs ---
prepare_secrets() {
  export ADMIN_TOKEN=${ADMIN_TOKEN:-$(random_hex 24)}
  [ -s "$state/encryption.key" ] || head -c 32 /dev/urandom | base64 > "$state/encryption.key"
  [ -s "$state/kyc-signing.key" ] || java deploy/local/Ed25519Key.java > "$state/kyc-signing.key"
  export PLATFORM_ENCRYPTION_KEY=$(cat "$state/encryption.key")
  export KYC_PROOF_SIGNING_KEY=$(cat "$state/kyc-signing.key")
  export WEBHOOKS_ALLOW_PRIVATE_TARGETS=true
}

# --- The three services ---
pids=()
stop() {
  trap - INT TERM HUP EXIT
  echo; echo "stopping the services"
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
# --- --moncash-sandbox: the MonCash stand-in, one business account per service whose return URL is that service's ---
start_moncash_sandbox() {
  [ "$moncash_sandbox" = 1 ] || return 0
  java -cp "moncash-sandbox/target/classes:checkout-service/target/quarkus-app/lib/main/*" \
    ht.platform.rail.moncash.sandbox.MonCashSandbox --port 8090 \
    --account checkout-sandbox:checkout-sandbox-secret:http://localhost:8082/pay/moncash/return \
    --account wallet-sandbox:wallet-sandbox-secret:http://localhost:8083/wallet/moncash/return \
    > "$state/moncash-sandbox.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 40); do answers 127.0.0.1 8090 && return 0; sleep 0.25; done
  echo "the MonCash stand-in did not start; see $state/moncash-sandbox.log" >&2; exit 1
}
moncash_env() { # module: the MONCASH_* variables of its stand-in account (none without --moncash-sandbox, or for kyc)
  [ "$moncash_sandbox" = 1 ] && [ "$1" != kyc-service ] || return 0
  local account="${1%%-*}-sandbox"
  echo MONCASH_API_BASE=http://127.0.0.1:8090/Api MONCASH_GATEWAY_BASE=http://127.0.0.1:8090/Moncash-middleware \
    "MONCASH_CLIENT_ID=$account" "MONCASH_CLIENT_SECRET=$account-secret"
}
start_service() { # module port
  # shellcheck disable=SC2046 # moncash_env prints plain NAME=value words
  env QUARKUS_HTTP_PORT=$2 PUBLIC_BASE_URL="http://localhost:$2" $(moncash_env "$1") \
    "${SERVICE_JAVA:-java}" $([ -f "$1/target/quarkus-app/app.aot" ] && echo "-XX:+IgnoreUnrecognizedVMOptions -XX:AOTCache=$1/target/quarkus-app/app.aot") -jar "$1/target/quarkus-app/quarkus-run.jar" > "$state/$1.log" 2>&1 & # the JDK 25 AOT cache when the build wrote one (SERVICE_JAVA=<JDK 25>/bin/java; ignored on JDK 17)
  pids+=($!)
}
start_services() {
  trap stop INT TERM HUP EXIT
  start_moncash_sandbox
  start_service kyc-service 8081
  start_service checkout-service 8082
  start_service wallet-gateway 8083
  local port pid
  for port in 8081 8082 8083; do
    for _ in $(seq 1 240); do
      curl -fs "http://localhost:$port/q/health/ready" >/dev/null 2>&1 && break
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a service died; see $state/*.log" >&2; exit 1; }; done
      sleep 0.25
    done
    curl -fs "http://localhost:$port/q/health/ready" >/dev/null || { echo "port $port not ready; see $state/*.log" >&2; exit 1; }
  done
  ready_after=$(seconds_since "$started")
}

# --- kyc live: Tesseract reads the MRZ (installed from Debian's packages when this runs as root) ---
ensure_tesseract() {
  command -v tesseract >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Tesseract for kyc's MRZ read (apt-get install tesseract-ocr tesseract-ocr-eng)"
    { apt-get install -y -q tesseract-ocr tesseract-ocr-eng || { apt-get update -q && apt-get install -y -q tesseract-ocr tesseract-ocr-eng; }; } \
      >"$state/tesseract-apt.log" 2>&1 && return 0
    echo "apt-get could not install Tesseract (see $state/tesseract-apt.log)"
  fi
  echo "kyc live cannot read an MRZ here (no tesseract): sudo apt-get install -y tesseract-ocr tesseract-ocr-eng"
}

# --- whether a live passport can be verified here, from kyc's own capabilities ---
report_kyc_live() {
  local caps
  if [ -n "${KYC_FACE_URL:-}" ]; then # the sidecar loads its models in a few seconds
    for _ in $(seq 1 120); do curl -fs "$KYC_FACE_URL/health" >/dev/null 2>&1 && break; sleep 0.5; done
    sleep 10 # kyc asks the sidecar's health at most every 10 s
  fi
  caps=$(curl -fs http://localhost:8081/api/v1/capabilities) || return 0
  if echo "$caps" | grep -q '"passport":{[^}]*"can_be_verified":true'; then
    echo "kyc live: a live passport can be verified here (MRZ read by tesseract, faces compared by the sidecar)"
  else
    echo "kyc live cannot verify a passport here: $(echo "$caps" | grep -q '"mrz_read":true' || echo 'no tesseract (sudo apt-get install -y tesseract-ocr tesseract-ocr-eng);') $(echo "$caps" | grep -q '"face_match":true' || echo 'no face sidecar (apt-get install nodejs npm, then run this again);')"
  fi
}

# --- kyc's face sidecar (live face match): node on 127.0.0.1:8091, packages from its package-lock; off without node ---
start_face_sidecar() {
  local dir=kyc-service/face-sidecar
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "node/npm not found: kyc live face match is off (apt-get install nodejs npm)"; return 0
  fi
  if [ ! -d "$dir/node_modules/@vladmandic/face-api/model" ]; then
    echo "installing the face sidecar's packages (npm ci in $dir)"
    (cd "$dir" && umask 022 && npm ci --no-audit --no-fund) >"$state/face-sidecar-npm.log" 2>&1 \
      || { echo "npm ci failed (see $state/face-sidecar-npm.log): kyc live face match is off"; return 0; }
  fi
  FACE_SIDECAR_PORT=8091 node "$dir/server.js" > "$state/face-sidecar.log" 2>&1 &
  pids+=($!)
  trap stop INT TERM HUP EXIT
  export KYC_FACE_URL=http://127.0.0.1:8091
}

# --- Demo credentials, written to .run-local/env ---
admin() { # port path json
  curl -fsS -X POST "http://localhost:$1$2" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d "$3"
}
create_demo_credentials() {
  local kyc_app
  # the demo key is a test key: its events go to test_webhook_url, signed with test_webhook_secret
  kyc_app=$(admin 8081 /admin/v1/applications '{"name":"Demo","return_urls":["https://bank.example/kyc/done"],"test_webhook_url":"http://127.0.0.1:9002/kyc"}')
  kyc_app_id=$(echo "$kyc_app" | json_field id)
  kyc_webhook_secret=$(echo "$kyc_app" | json_field test_webhook_secret)
  kyc_key=$(admin 8081 "/admin/v1/applications/$kyc_app_id/keys" '{"mode":"test"}' | json_field key)
  co_app_id=$(admin 8082 /admin/v1/applications '{"name":"Demo"}' | json_field id)
  co_key=$(admin 8082 "/admin/v1/applications/$co_app_id/keys" '{"mode":"test"}' | json_field key)
  gw_project_id=$(admin 8083 /admin/v1/projects '{"name":"Demo"}' | json_field id)
  gw_key=$(admin 8083 "/admin/v1/projects/$gw_project_id/keys" '{"mode":"test"}' | json_field key)
  if [ "$moncash_sandbox" = 1 ]; then # live keys pay and withdraw through the MonCash stand-in
    co_live_key=$(admin 8082 "/admin/v1/applications/$co_app_id/keys" '{"mode":"live"}' | json_field key)
    gw_live_key=$(admin 8083 "/admin/v1/projects/$gw_project_id/keys" '{"mode":"live"}' | json_field key)
    printf 'export CO_LIVE_KEY=%s\nexport GW_LIVE_KEY=%s\n' "$co_live_key" "$gw_live_key" > "$state/env.live"
  fi
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
}

# One sign-in link per service for the merchant dashboard (single use, valid 5 minutes; see README "Dashboard").
create_dashboard_links() {
  kyc_dash=$(admin 8081 "/admin/v1/applications/$kyc_app_id/dashboard_links" '{"mode":"test"}' | json_field url)
  co_dash=$(admin 8082 "/admin/v1/applications/$co_app_id/dashboard_links" '{"mode":"test"}' | json_field url)
  gw_dash=$(admin 8083 "/admin/v1/projects/$gw_project_id/dashboard_links" '{"mode":"test"}' | json_field url)
}

print_tour() {
  cat <<MSG

All three services are ready ($ready_after s after start), on $pg_where:
  kyc-service       http://localhost:8081   (Swagger UI: http://localhost:8081/q/swagger-ui)
  checkout-service  http://localhost:8082   (Swagger UI: http://localhost:8082/q/swagger-ui)
  wallet-gateway    http://localhost:8083   (Swagger UI: http://localhost:8083/q/swagger-ui)
Logs in $state/. Private webhook targets are allowed (local demo only).
$([ "$moncash_sandbox" = 1 ] && echo "MonCash stand-in on http://127.0.0.1:8090: the live keys in $state/env.live (CO_LIVE_KEY, GW_LIVE_KEY) pay and withdraw through it." || true)

Operator token (this run only): $ADMIN_TOKEN
Demo test-mode credentials (also in $state/env — 'source .run-local/env' in another shell):
  KYC_KEY=$kyc_key
  CO_KEY=$co_key
  GW_KEY=$gw_key

Merchant dashboards (each link opens once, within 5 minutes; README "Dashboard" shows how to get another):
  kyc-service       $kyc_dash
  checkout-service  $co_dash
  wallet-gateway    $gw_dash

Try:
  curl -s http://localhost:8081/api/v1/capabilities
  curl -s -X POST http://localhost:8082/api/v1/payment_intents -H "Authorization: Bearer $co_key" \\
       -H 'Content-Type: application/json' -d '{"amount":"250.000000","currency":"HTG"}'
  curl -s -X POST http://localhost:8083/api/v1/payments -H "Authorization: Bearer $gw_key" \\
       -H 'Content-Type: application/json' -H 'Idempotency-Key: order-1001' -d '{"amount":1000,"currency":"HTG","reference":"order-1001"}'
  curl -s http://localhost:8083/api/v1/balance -H "Authorization: Bearer $gw_key"
The README's curl tour continues from here. Ctrl-C stops all three.
MSG
}

if [ "$prepare_only" = 1 ]; then prepare_secrets; exit 0; fi
build_if_needed
start_postgres
prepare_secrets
ensure_tesseract
start_face_sidecar
start_services
create_demo_credentials
create_dashboard_links
print_tour
report_kyc_live
wait
