#!/usr/bin/env bash
# Measures, for each service, the JVM-mode start-to-ready time and the resident memory (RSS) of the
# packaged jar: it starts target/quarkus-app/quarkus-run.jar, polls /q/health/ready until it answers
# 200 (the database is checked), then reads VmRSS/VmHWM from /proc/<pid>/status, sends a light load
# (200 requests) and reads RSS again. These numbers size the Kubernetes requests/limits (deploy/README.md).
#
# In one run it measures each variant that the machine can run, so the rows compare under the same load:
#   jdk17 fast-jar   $JAVA17 (default: java when it is a JDK 17..24)
#   jdk25 fast-jar   $JAVA25 (default: java when it is 25+, else /usr/lib/jvm/temurin-25-jdk-amd64) without the cache
#   jdk25 aot        the same JDK with -XX:AOTCache=app.aot, when the build wrote target/quarkus-app/app.aot
#                    (a build on JDK 25: profile aot-cache in the root pom)
# and for each of them a start against the already migrated schema and (SCHEMA=both, the default) one against an
# empty schema (the service's Flyway schema dropped first, so Flyway migrates it at start), the empty ones first.
# SCHEMA=job starts against the migrated schema as a Kubernetes pod does: DB_MIGRATE_AT_START=false (the migration
# Job ran Flyway), ready once the schema check finds the build's newest migration: on a database no start has
# migrated yet it never becomes ready, so list it after another mode (SCHEMA="migrated job"). SCHEMA may list several modes.
#
# Usage (after ./mvnw -B package, or verify on JDK 25 for the cache):
#   deploy/measure-startup.sh                          # all three services
#   deploy/measure-startup.sh wallet-gateway           # one service
#   RUNS=5 VARIANTS="jdk25-fastjar jdk25-aot" SCHEMA=migrated deploy/measure-startup.sh
#   JAVA_OPTS="-XX:MaxRAMPercentage=50" deploy/measure-startup.sh   # extra JVM options for every variant
# Environment: DB_REACTIVE_URL / DB_JDBC_URL / DB_USER / DB_PASSWORD (default: local Postgres, database
# "platform"), PORT_BASE (default 18080: kyc 18081, checkout 18082, wallet 18083), RUNS (default 3; the summary
# gives min and median), VARIANTS (default: every one available), SCHEMA (migrated|empty|job|both or a list such as
# "migrated job", default both; "empty" needs psql and drops the service's schema in that database).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PORT_BASE="${PORT_BASE:-18080}"
RUNS="${RUNS:-3}"
SCHEMA="${SCHEMA:-both}"
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
# each start is stopped at once: no endpoints controller to wait for (a pod's stop keeps serving 5 s first)
export QUARKUS_SHUTDOWN_DELAY="${QUARKUS_SHUTDOWN_DELAY:-0s}"

if [ "$#" -gt 0 ]; then services=("$@"); else services=(kyc-service checkout-service wallet-gateway); fi

now_ms() { date +%s%3N; }
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true' EXIT
kib() { awk -v k="$1" '/^'"$1"':/ {print $2}' "/proc/$2/status"; }
jdk_feature() { "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}'; }

default_java=$(command -v java || true)
if [ -z "${JAVA17:-}" ] && [ -n "$default_java" ] && [ "$(jdk_feature "$default_java")" -lt 25 ]; then JAVA17=$default_java; fi
if [ -z "${JAVA25:-}" ]; then
  if [ -n "$default_java" ] && [ "$(jdk_feature "$default_java")" -ge 25 ]; then JAVA25=$default_java
  elif [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then JAVA25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; fi
fi
all_variants=()
[ -n "${JAVA17:-}" ] && all_variants+=(jdk17-fastjar)
[ -n "${JAVA25:-}" ] && all_variants+=(jdk25-fastjar jdk25-aot)
read -r -a variants <<< "${VARIANTS:-${all_variants[*]}}"
schemas=()
for mode in $SCHEMA; do
  case "$mode" in both) schemas+=(empty migrated);; migrated|empty|job) schemas+=("$mode");;
    *) echo "SCHEMA=migrated|empty|job|both (or a list)" >&2; exit 1;; esac
done
db_name="${DB_JDBC_URL##*/}"; db_name="${db_name%%\?*}"
db_hostport="${DB_JDBC_URL#jdbc:postgresql://}"; db_hostport="${db_hostport%%/*}"
pg() { # database, psql arguments...
  local db=$1; shift
  PGPASSWORD="$DB_PASSWORD" psql -q -h "${db_hostport%%:*}" -p "${db_hostport##*:}" -U "$DB_USER" -d "$db" "$@" 2>/dev/null
}
drop_schema() { # schema
  pg "$db_name" -c "DROP SCHEMA IF EXISTS $1 CASCADE" >/dev/null
}
if command -v psql >/dev/null; then # a new machine has no database yet: create it (the services create their schemas)
  pg postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db_name'" | grep -q 1 \
    || pg postgres -c "CREATE DATABASE \"$db_name\"" >/dev/null || true
fi

results="$(mktemp)"
printf '%-17s %-14s %-8s %3s %9s %8s %9s %8s %9s\n' service variant schema run ready_ms q_says rss_ready peak_MiB rss_load
for svc in "${services[@]}"; do
  app="$ROOT/$svc/target/quarkus-app"
  jar="$app/quarkus-run.jar"
  [ -f "$jar" ] || { echo "$svc: $jar missing - run ./mvnw -B -pl $svc -am package -DskipTests" >&2; exit 1; }
  case "$svc" in
    kyc-service) port=$((PORT_BASE + 1)); schema_name=kyc;;
    checkout-service) port=$((PORT_BASE + 2)); schema_name=checkout;;
    wallet-gateway) port=$((PORT_BASE + 3)); schema_name=wallet;;
    *) echo "unknown service $svc" >&2; exit 1;;
  esac
  for variant in "${variants[@]}"; do
    case "$variant" in
      jdk17-fastjar) javabin=${JAVA17:-}; cache_opts="";;
      jdk25-fastjar) javabin=${JAVA25:-}; cache_opts="";;
      jdk25-aot) javabin=${JAVA25:-}; cache_opts="-XX:AOTCache=app.aot"
        [ -f "$app/app.aot" ] || { echo "$svc: no $app/app.aot (build on JDK 25); jdk25-aot skipped" >&2; continue; };;
      *) echo "unknown variant $variant" >&2; exit 1;;
    esac
    [ -n "$javabin" ] || { echo "$variant: no such JDK here; skipped" >&2; continue; }
    for schema in "${schemas[@]}"; do
      # "migrated": the previous start (the empty-schema runs come first) left the schema migrated; with
      # SCHEMA=migrated alone on a fresh database the first run migrates it: RUNS>=3 and read the median
      for run in $(seq 1 "$RUNS"); do
        if curl -s -o /dev/null "http://localhost:$port/"; then
          echo "port $port is already in use; choose other ports with PORT_BASE=..." >&2; exit 1
        fi
        if [ "$schema" = empty ]; then
          drop_schema "$schema_name" || { echo "cannot drop schema $schema_name in $db_name (psql?)" >&2; exit 1; }
        fi
        log="$(mktemp)"
        start=$(now_ms)
        # the cache is given relative to the application directory, as the image and run.sh start it
        # shellcheck disable=SC2086
        migrate=true; [ "$schema" = job ] && migrate=false
        (cd "$app" && QUARKUS_HTTP_PORT=$port PUBLIC_BASE_URL="http://localhost:$port" DB_MIGRATE_AT_START=$migrate \
          exec "$javabin" $cache_opts ${JAVA_OPTS:-} -jar quarkus-run.jar) >"$log" 2>&1 &
        pid=$!
        ready=""
        for _ in $(seq 1 6000); do
          if ! kill -0 "$pid" 2>/dev/null; then break; fi
          if curl -fs -o /dev/null "http://localhost:$port/q/health/ready"; then ready=$(now_ms); break; fi
          sleep 0.01
        done
        if [ -z "$ready" ]; then
          echo "$svc ($variant) did not become ready; log:" >&2; tail -40 "$log" >&2; kill "$pid" 2>/dev/null || true; exit 1
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
        line=$(printf '%-17s %-14s %-8s %3s %9s %8s %9s %8s %9s' "$svc" "$variant" "$schema" "$run" "$((ready - start))" \
          "${says:-?}" "$((rss_ready / 1024))" "$((hwm / 1024))" "$((rss_load / 1024))")
        echo "$line"; echo "$line" >> "$results"
      done
    done
  done
done

echo
echo "summary (min / median over $RUNS runs; load: $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
printf '%-17s %-14s %-8s %15s %17s %17s\n' service variant schema ready_ms rss_ready_MiB rss_load_MiB
python3 - "$results" <<'PY'
import sys, statistics, collections
rows = collections.OrderedDict()
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault((f[0], f[1], f[2]), []).append((int(f[4]), int(f[6]), int(f[8])))
for (svc, variant, schema), v in rows.items():
    def mm(i):
        xs = [x[i] for x in v]
        return f"{min(xs)} / {statistics.median(xs):g}"
    print(f"{svc:<17} {variant:<14} {schema:<8} {mm(0):>15} {mm(1):>17} {mm(2):>17}")
PY
rm -f "$results"
