#!/usr/bin/env bash
# Measures, for each service, the JVM-mode start-to-ready time and the resident memory (RSS) of the
# packaged fast-jar: it starts target/quarkus-app/quarkus-run.jar, polls /q/health/ready until it answers
# 200 (the database is checked), then reads VmRSS/VmHWM from /proc/<pid>/status, sends a light load
# (200 requests) and reads RSS again. These numbers size the Kubernetes requests/limits (deploy/README.md).
#
# Usage (after ./mvnw -B package -DskipTests):
#   deploy/measure-startup.sh                          # all three services
#   deploy/measure-startup.sh wallet-gateway           # one service
#   JAVA_OPTS="-Xmx256m -Xms128m" deploy/measure-startup.sh   # heap as in the container (50%/25% of 512Mi)
# Environment: DB_REACTIVE_URL / DB_JDBC_URL / DB_USER / DB_PASSWORD (default: local Postgres, database
# "platform"), PORT_BASE (default 18080: kyc 18081, checkout 18082, wallet 18083), RUNS (default 1).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT_BASE="${PORT_BASE:-18080}"
RUNS="${RUNS:-1}"
export DB_REACTIVE_URL="${DB_REACTIVE_URL:-postgresql://localhost:5432/platform}"
export DB_JDBC_URL="${DB_JDBC_URL:-jdbc:postgresql://localhost:5432/platform}"
export DB_USER="${DB_USER:-postgres}"
export DB_PASSWORD="${DB_PASSWORD:-}"
export ADMIN_TOKEN="measure-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export PLATFORM_ENCRYPTION_KEY="${PLATFORM_ENCRYPTION_KEY:-$(head -c 32 /dev/urandom | base64 | tr -d '\n')}"
if [ -z "${KYC_PROOF_SIGNING_KEY:-}" ] && command -v openssl >/dev/null; then
  KYC_PROOF_SIGNING_KEY="$(openssl genpkey -algorithm ed25519 -outform DER | base64 | tr -d '\n')"
fi
export KYC_PROOF_SIGNING_KEY="${KYC_PROOF_SIGNING_KEY:-}"
export WEBHOOKS_ALLOW_PRIVATE_TARGETS=false

if [ "$#" -gt 0 ]; then services=("$@"); else services=(kyc-service checkout-service wallet-gateway); fi

now_ms() { date +%s%3N; }
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true' EXIT
kib() { awk -v k="$1" '/^'"$1"':/ {print $2}' "/proc/$2/status"; }

printf '%-18s %4s %16s %14s %13s %13s %16s\n' service run start_to_ready_ms quarkus_says rss_ready_MiB peak_MiB rss_after_200_MiB
for svc in "${services[@]}"; do
  jar="$ROOT/$svc/target/quarkus-app/quarkus-run.jar"
  [ -f "$jar" ] || { echo "$svc: $jar missing - run ./mvnw -B -pl $svc -am package -DskipTests" >&2; exit 1; }
  case "$svc" in
    kyc-service) port=$((PORT_BASE + 1));;
    checkout-service) port=$((PORT_BASE + 2));;
    wallet-gateway) port=$((PORT_BASE + 3));;
    *) echo "unknown service $svc" >&2; exit 1;;
  esac
  for run in $(seq 1 "$RUNS"); do
    if curl -s -o /dev/null "http://localhost:$port/"; then
      echo "port $port is already in use; choose other ports with PORT_BASE=..." >&2; exit 1
    fi
    log="$(mktemp)"
    start=$(now_ms)
    # shellcheck disable=SC2086
    QUARKUS_HTTP_PORT=$port PUBLIC_BASE_URL="http://localhost:$port" java ${JAVA_OPTS:-} -jar "$jar" >"$log" 2>&1 &
    pid=$!
    ready=""
    for _ in $(seq 1 1200); do
      if ! kill -0 "$pid" 2>/dev/null; then break; fi
      if curl -fs -o /dev/null "http://localhost:$port/q/health/ready"; then ready=$(now_ms); break; fi
      sleep 0.05
    done
    if [ -z "$ready" ]; then
      echo "$svc did not become ready; log:" >&2; tail -40 "$log" >&2; kill "$pid" 2>/dev/null || true; exit 1
    fi
    rss_ready=$(kib VmRSS "$pid"); hwm=$(kib VmHWM "$pid")
    for _ in $(seq 1 100); do
      curl -fs -o /dev/null "http://localhost:$port/q/health/ready" || true
      curl -fs -o /dev/null -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
        -d '{"name":' "http://localhost:$port/admin/v1/nothing" || true
    done
    rss_load=$(kib VmRSS "$pid")
    says=$(grep -o 'started in [0-9.]*s' "$log" | head -1 | awk '{print $3}' || true)
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    rm -f "$log"
    printf '%-18s %4s %16s %14s %13s %13s %16s\n' "$svc" "$run" "$((ready - start))" "${says:-?}" \
      "$((rss_ready / 1024))" "$((hwm / 1024))" "$((rss_load / 1024))"
  done
done
