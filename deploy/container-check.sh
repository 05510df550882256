#!/usr/bin/env bash
# The platform as users deploy it: builds every image, renders the dev overlay with `kubectl kustomize`, runs it as pods
# with `podman kube play` (translating what kube play cannot run, and saying so), waits for readiness through the
# manifests' own probes, then drives the pods from the host: the README's curl tour of the three services, signed
# webhooks to receivers on the host (verified), a dashboard sign-in, the event feed with `listen`, the pods' security
# and memory, a killed wallet container that comes back and delivers what was pending, two wallet replicas under
# 1,000 payments (each event delivered once, in order per address), and a SIGTERM stop that loses nothing.
#
#   deploy/container-check.sh            everything, then removes the pods (needs root: podman, apt)
#   deploy/container-check.sh --quick    images, Postgres, the migrate Job and one service pod to readiness
#   deploy/container-check.sh --keep     leaves the pods running and prints their ports
#   deploy/container-check.sh --down     removes the pods, their volumes and the check's receivers
#   deploy/container-check.sh --compose  the images under deploy/compose.yaml with podman-compose (Debian's, installed
#                                        when missing) instead of kube play: readiness, the curl tour with webhooks to
#                                        receivers on the host, and kyc-service's face sidecar with its shared secret;
#                                        then `podman-compose down`. Not part of CI (--quick).
#
# Every pod runs with hostNetwork on 127.0.0.1, its ports moved into CHECK_PORT_BASE+00..99 (default 18200:
# kyc 18281, checkout 18282, wallet 18283 and 18293, Postgres 18232, receivers 18250..18269). Work files and logs:
# CHECK_WORK (default /var/tmp/platform-container-check). SKIP_PACKAGE=1 uses the jars already in target/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BASE=${CHECK_PORT_BASE:-18200}
WORK=${CHECK_WORK:-/var/tmp/platform-container-check}
PLAN=$WORK/plan
LOGS=$WORK/logs
TAG=1.0.0-SNAPSHOT
PG_PORT=$((BASE + 32)) KYC_PORT=$((BASE + 81)) CO_PORT=$((BASE + 82)) GW_PORT=$((BASE + 83)) GW2_PORT=$((BASE + 93))
PG_PASSWORD=dev-only-postgres-password
KYC_ADMIN=dev-only-admin-token-kyc CO_ADMIN=dev-only-admin-token-checkout GW_ADMIN=dev-only-admin-token-wallet
PY=/usr/bin/python3
export CONTAINERS_CONF=$WORK/containers.conf

mode=full keep=0
for a in "$@"; do
  case $a in
    --quick) mode=quick ;;
    --keep) keep=1 ;;
    --down) mode=down ;;
    --compose) mode=compose ;;
    *) echo "usage: $0 [--quick | --compose] [--keep] | --down" >&2; exit 2 ;;
  esac
done
# where the services send the tour's webhooks, and where the host's receivers listen: the pods run on the host's
# network; Compose's containers reach the host as host.docker.internal (compose.yaml's extra_hosts)
HOOK_HOST=127.0.0.1 HOOK_BIND=127.0.0.1
[ "$(id -u)" = 0 ] || { echo "container-check needs root (podman with runc, apt)" >&2; exit 2; }
mkdir -p "$WORK" "$LOGS"

# ------------------------------------------------------------------ output: steps with their timing

T0=$(date +%s%N) STEP=0 TIMINGS=()
secs() { local ns=$(( $(date +%s%N) - $1 )); printf '%d.%d' $((ns / 1000000000)) $((ns / 100000000 % 10)); }
say() { printf '   %s\n' "$*"; }
fail() { printf '   FAILED: %s\n' "$*" >&2; exit 1; }
step() { # title function [args]
  local title=$1 t; shift
  STEP=$((STEP + 1)); t=$(date +%s%N)
  printf '\n== %d. %s\n' "$STEP" "$title"
  "$@"
  TIMINGS+=("$(printf '%2d. %-62s %7s s' "$STEP" "$title" "$(secs "$t")")")
  printf '   done in %s s\n' "$(secs "$t")"
}
summary() {
  printf '\n== container-check %s: steps and timings\n' "$1"
  printf '   %s\n' "${TIMINGS[@]}"
  printf '   total %s s\n' "$(secs "$T0")"
  printf 'container-check: %d passed, %d failed\n' "${#TIMINGS[@]}" "$([ "$1" = passed ] && echo 0 || echo 1)"
}

# ------------------------------------------------------------------ prerequisites

prerequisites() {
  local missing=()
  command -v podman > /dev/null || missing+=(podman)
  command -v runc > /dev/null || missing+=(runc)
  [ -x /usr/libexec/podman/catatonit ] || command -v catatonit > /dev/null || missing+=(catatonit)
  command -v debootstrap > /dev/null || missing+=(debootstrap)
  command -v jq > /dev/null || missing+=(jq)
  command -v psql > /dev/null || missing+=(postgresql-client)
  command -v curl > /dev/null || missing+=(curl)
  $PY -c 'import yaml' 2> /dev/null || missing+=(python3-yaml)
  if [ "$mode" = compose ]; then
    command -v podman-compose > /dev/null || missing+=(podman-compose)
    # container names resolve on a compose network only with CNI's dnsname plugin (podman 4.3's default backend is CNI)
    [ -x /usr/lib/cni/dnsname ] || missing+=(golang-github-containernetworking-plugin-dnsname)
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    say "apt-get install ${missing[*]}"
    apt-get update -qq > "$LOGS/apt.log" 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >> "$LOGS/apt.log" 2>&1 \
      || { tail -20 "$LOGS/apt.log"; fail "apt-get install ${missing[*]}"; }
  fi
  # runc: crun refuses this kind of machine's hybrid cgroups; no rlimits: setting them is refused here
  printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n' > "$CONTAINERS_CONF"
  say "$(podman --version), runtime $(podman info --format '{{.Host.OCIRuntime.Name}}' 2> /dev/null), cgroups $(podman info --format '{{.Host.CgroupsVersion}}' 2> /dev/null); CONTAINERS_CONF=$CONTAINERS_CONF"
}

# ------------------------------------------------------------------ images

package_jars() {
  if [ "${SKIP_PACKAGE:-0}" = 1 ]; then say "SKIP_PACKAGE=1: the jars in target/"; return; fi
  ./mvnw -B -q package -DskipTests -DskipITs -pl kyc-service,checkout-service,wallet-gateway,shared-webhook-signing -am \
    > "$LOGS/package.log" 2>&1 || { tail -40 "$LOGS/package.log"; fail "./mvnw package"; }
  say "fast-jars in <service>/target/quarkus-app, shared-webhook-signing jar (listen, receivers)"
}

base_images() {
  deploy/docker/base-images.sh bookworm postgres | sed 's/^/   /'
}

build() { # log-name podman-build-args...
  local name=$1; shift
  podman build --pull=never --network=host "$@" > "$LOGS/build-$name.log" 2>&1 \
    || { tail -30 "$LOGS/build-$name.log"; fail "podman build $name"; }
}

build_images() {
  local s t
  for s in kyc-service checkout-service wallet-gateway; do
    t=$(date +%s%N)
    build "$s" -f deploy/docker/jvm.Dockerfile --build-arg SERVICE=$s -t platform/$s:$TAG .
    say "platform/$s:$TAG  $(image_size platform/$s:$TAG)  ($(secs "$t") s)"
  done
  if grep -q 'image: platform/kyc-face-sidecar' deploy/k8s/base/kyc-service/deployment.yaml; then
    t=$(date +%s%N)
    local ca=()
    # this machine reaches the npm registry through a proxy that re-signs TLS: npm in the build trusts its CA too
    [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ] \
      && ca=(--build-arg NODE_EXTRA_CA_CERTS=/run/extra-ca.crt --volume "$NODE_EXTRA_CA_CERTS:/run/extra-ca.crt:ro")
    build face-sidecar "${ca[@]}" -t platform/kyc-face-sidecar:$TAG kyc-service/face-sidecar
    say "platform/kyc-face-sidecar:$TAG  $(image_size platform/kyc-face-sidecar:$TAG)  ($(secs "$t") s)"
  fi
  say "postgres (dev overlay): docker.io/library/postgres:15-bookworm  $(image_size docker.io/library/postgres:15-bookworm)"
}
image_size() { podman image inspect --format '{{.Size}}' "$1" | awk '{printf "%.0f MB", $1 / 1e6}'; }

# ------------------------------------------------------------------ manifests -> kube play

render() {
  if command -v kubectl > /dev/null; then
    kubectl kustomize deploy/k8s/overlays/dev > "$WORK/rendered.yaml"
    say "kubectl kustomize deploy/k8s/overlays/dev: $(grep -c '^kind:' "$WORK/rendered.yaml") objects ($(kubectl version --client 2> /dev/null | head -1))"
  else
    fail "kubectl is not installed (it is not a Debian package): install kubectl, which renders with its built-in kustomize"
  fi
}

VOLUMES=$WORK/volumes MEMORY_VOLUMES=/dev/shm/platform-container-check
translate() {
  rm -rf "$PLAN"
  CHECK_VOLUMES=$VOLUMES CHECK_MEMORY_VOLUMES=$MEMORY_VOLUMES \
    $PY deploy/container-check/translate.py "$WORK/rendered.yaml" "$PLAN" "$BASE" "${1:-1}" | tee "$WORK/translations.txt" | sed 's/^/   /'
}
# the emptyDirs, new for each run, mode 0777 as Kubernetes makes them
fresh_volumes() {
  local d
  rm -rf "$VOLUMES" "$MEMORY_VOLUMES"
  for d in $(plan_q '.hostDirs[]'); do mkdir -p "$d" && chmod 0777 "$d"; done
}

unit_file() { echo "$PLAN/$1.yaml"; }
plan_q() { jq -r "$1" "$PLAN/plan.json"; }
ctr_of() { # unit container -> the podman container's name
  local kind; kind=$(plan_q ".units[] | select(.name==\"$1\") | .kind")
  if [ "$kind" = Job ]; then echo "$1-$2"; else echo "$1-pod-0-$2"; fi
}
pod_of() { local kind; kind=$(plan_q ".units[] | select(.name==\"$1\") | .kind"); [ "$kind" = Job ] && echo "$1" || echo "$1-pod-0"; }

play() { # unit
  podman kube play --network host "$(unit_file "$1")" > "$LOGS/play-$1.log" 2>&1 \
    || { cat "$LOGS/play-$1.log"; fail "podman kube play $1"; }
  date +%s%N > "$WORK/played-$1"
}
unplay() { [ -f "$(unit_file "$1")" ] && podman kube down "$(unit_file "$1")" > /dev/null 2>&1 || true; }

# One probe of the plan, once: 0 when it passes.
probe_once() { # unit container kind
  local p http cmd
  p=$(plan_q ".units[] | select(.name==\"$1\") | .pods[0].containers[] | select(.name==\"$2\") | .probes.$3 // empty")
  [ -n "$p" ] || return 0
  http=$(jq -r '.http // empty' <<< "$p")
  if [ -n "$http" ]; then
    curl -fsS -o /dev/null --max-time "$(jq -r '.timeoutSeconds // 1' <<< "$p")" "$http" 2> /dev/null
  else
    mapfile -t cmd < <(jq -r '.exec[]' <<< "$p")
    # the probe's timeout plus what starting a process through podman exec costs on a busy machine (seconds)
    timeout "$(( $(jq -r '.timeoutSeconds // 1' <<< "$p") + 10 ))" podman exec "$(ctr_of "$1" "$2")" "${cmd[@]}" > /dev/null 2>&1
  fi
}
# Waits for the startup probe (its failureThreshold x periodSeconds), then the readiness probe; prints start->ready.
# The probes' endpoints and commands are the manifests'; they are polled every 0.25 s to time the start closely.
await_ready() { # unit [deadline-seconds]
  local unit=$1 c started_ns limit t_ready st
  for c in $(plan_q ".units[] | select(.name==\"$unit\") | .pods[0].containers[] | select(.init|not) | .name"); do
    st=$(podman inspect --format '{{.State.StartedAt}}' "$(ctr_of "$unit" "$c")" | sed 's/ +0000 UTC//; s/ [A-Z]*$//')
    started_ns=$(date -d "$st" +%s%N)
    limit=$(plan_q ".units[] | select(.name==\"$unit\") | .pods[0].containers[] | select(.name==\"$c\") | .probes.startupProbe // {} | ((.periodSeconds // 10) * (.failureThreshold // 3))")
    limit=${2:-$((limit + 60))}
    local deadline=$(( $(date +%s) + limit ))
    until probe_once "$unit" "$c" startupProbe; do
      [ "$(date +%s)" -lt "$deadline" ] || { podman logs --tail 40 "$(ctr_of "$unit" "$c")"; fail "$unit/$c: startup probe not passed within $limit s"; }
      container_running "$unit" "$c"
      sleep 0.25
    done
    until probe_once "$unit" "$c" readinessProbe; do
      [ "$(date +%s)" -lt "$deadline" ] || { podman logs --tail 40 "$(ctr_of "$unit" "$c")"; fail "$unit/$c: not ready within $limit s"; }
      container_running "$unit" "$c"
      sleep 0.25
    done
    t_ready=$(date +%s%N)
    echo "$t_ready" > "$WORK/ready-$unit-$c"
    probe_once "$unit" "$c" livenessProbe || fail "$unit/$c: ready but its liveness probe fails"
    local after=""
    [ -f "$WORK/job-done-$unit" ] && after=", $(awk -v a="$(cat "$WORK/job-done-$unit")" -v b="$t_ready" 'BEGIN{printf "%.1f", (b-a)/1e9}') s after its Job ended"
    say "$unit/$c ready: start -> ready $(awk -v a="$started_ns" -v b="$t_ready" 'BEGIN{printf "%.1f", (b-a)/1e9}') s$after"
  done
}
container_running() {
  local state; state=$(podman inspect --format '{{.State.Status}}' "$(ctr_of "$1" "$2")" 2> /dev/null || echo gone)
  case $state in running|created|initialized|configured) ;; *) podman logs --tail 40 "$(ctr_of "$1" "$2")" 2>&1 || true; fail "$1/$2 is $state";; esac
}

# ------------------------------------------------------------------ the pods

UNITS_SERVICES=(kyc-service checkout-service wallet-gateway)

down_all() {
  local f
  [ -d "$PLAN" ] && for f in "$PLAN"/*.yaml; do podman kube down "$f" > /dev/null 2>&1 || true; done
  podman volume rm -f data-postgres-0 > /dev/null 2>&1 || true
  rm -rf "$VOLUMES" "$MEMORY_VOLUMES"
  stop_host_processes
}

start_postgres() {
  podman volume rm -f data-postgres-0 > /dev/null 2>&1 || true
  play postgres
  await_ready postgres
  say "empty database platform on 127.0.0.1:$PG_PORT (volume data-postgres-0 made new)"
}

# The Deployments first, then the Jobs: a service pod must answer its startup probe and stay not ready until its
# schema is migrated, then turn ready only after its Job exited 0.
start_services() {
  local u c pair t started
  for u in "$@"; do play "$u"; done
  local pending=() deadline=$(( $(date +%s) + 300 ))
  for u in "$@"; do
    for c in $(plan_q ".units[] | select(.name==\"$u\") | .pods[0].containers[] | select(.init|not) | .name"); do pending+=("$u/$c"); done
  done
  # every container's startup probe, polled together: start -> started is each container's own start time
  while [ ${#pending[@]} -gt 0 ]; do
    local still=()
    for pair in "${pending[@]}"; do
      u=${pair%/*} c=${pair#*/}
      if probe_once "$u" "$c" startupProbe; then
        t=$(date +%s%N)
        started=$(date -d "$(podman inspect --format '{{.State.StartedAt}}' "$(ctr_of "$u" "$c")" | sed 's/ +0000 UTC//')" +%s%N)
        say "$u/$c: start -> startup probe passed $(awk -v a="$started" -v b="$t" 'BEGIN{printf "%.1f", (b-a)/1e9}') s"
      else
        container_running "$u" "$c"
        still+=("$pair")
      fi
    done
    pending=("${still[@]+"${still[@]}"}")
    [ ${#pending[@]} = 0 ] || [ "$(date +%s)" -lt "$deadline" ] || fail "startup probes not passed within 300 s: ${pending[*]}"
    [ ${#pending[@]} = 0 ] || sleep 0.25
  done
  for u in "$@"; do
    local code; code=$(curl -s -o "$WORK/$u-ready-before-job.json" -w '%{http_code}' "$(plan_q ".units[] | select(.name==\"$u\") | .pods[0].containers[] | select(.name==\"$u\") | .probes.readinessProbe.http")")
    [ "$code" = 503 ] || fail "$u answered $code on readiness before its migrate Job ran (expected 503)"
    say "$u not ready before its Job: $(jq -c '[.checks[] | select(.status=="DOWN") | {(.name): .data.found}] | add' "$WORK/$u-ready-before-job.json")"
  done
}

# a service's migrate Job: named for its release (<service>-migrate-<release>, deploy/k8s/base/*/migrate-job.yaml)
job_of() { # service
  local job; job=$(plan_q ".units[] | select(.kind==\"Job\" and (.name | startswith(\"$1-migrate-\"))) | .name")
  [ -n "$job" ] && [ "$(wc -l <<< "$job")" = 1 ] || fail "$1: expected one Job $1-migrate-<release> in the plan, found '${job//$'\n'/ }'"
  echo "$job"
}

run_jobs() {
  local u ctr code job
  for u in "$@"; do play "$(job_of "$u")"; done
  for u in "$@"; do
    job=$(job_of "$u")
    ctr=$(ctr_of "$job" migrate)
    code=$(timeout 600 podman wait "$ctr")
    echo "$(date +%s%N)" > "$WORK/job-done-$u"
    podman logs "$ctr" > "$LOGS/$u-migrate.log" 2>&1 || true
    [ "$code" = 0 ] || { tail -30 "$LOGS/$u-migrate.log"; fail "$job exited $code"; }
    say "Job $job: exit 0 on the empty database ($(grep -c 'Migrating schema' "$LOGS/$u-migrate.log" || true) migrations applied: $(grep -o 'Successfully applied [0-9]* migrations[^,]*' "$LOGS/$u-migrate.log" | head -1 | tr -d '\\'))"
  done
}

ready_after_jobs() {
  local u
  for u in "$@"; do
    await_ready "$u"
    [ "$(cat "$WORK/ready-$u-$u")" -gt "$(cat "$WORK/job-done-$u")" ] || fail "$u was ready before its Job ended"
  done
  say "every service turned ready only after its Job exited 0"
}

# ------------------------------------------------------------------ pods as Kubernetes runs them

security() {
  local u c ctr user ro caps nnp mounts declared mem limit seccomp
  for u in postgres "${UNITS_SERVICES[@]}"; do
    for c in $(plan_q ".units[] | select(.name==\"$u\") | .pods[0].containers[] | select(.init|not) | .name"); do
      ctr=$(ctr_of "$u" "$c")
      local pid; pid=$(podman inspect --format '{{.State.Pid}}' "$ctr")
      user=$(awk '/^Uid:/{print $2}' "/proc/$pid/status")
      ro=$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$ctr")
      caps=$(awk '/^CapEff:/{print $2}' "/proc/$pid/status")
      nnp=$(awk '/^NoNewPrivs:/{print $2}' "/proc/$pid/status")
      seccomp=$(awk '/^Seccomp:/{print $2}' "/proc/$pid/status")
      mounts=$(podman inspect --format '{{range .Mounts}}{{.Destination}} {{end}}' "$ctr" | tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' ')
      declared=$(plan_q ".units[] | select(.name==\"$u\") | .pods[0].containers[] | select(.name==\"$c\") | .mounts | join(\" \")")
      want_user=$(plan_q ".units[] | select(.name==\"$u\") | .pods[0].containers[] | select(.name==\"$c\") | .runAsUser // 185")
      [ "$user" = "$want_user" ] || fail "$u/$c runs as uid $user, not $want_user"
      [ "$ro" = true ] || fail "$u/$c: root filesystem writable"
      [ "$caps" = 0000000000000000 ] || fail "$u/$c: effective capabilities $caps"
      [ "$nnp" = 1 ] || fail "$u/$c: no_new_privs not set"
      [ "$seccomp" = 2 ] || fail "$u/$c: no seccomp filter (Seccomp: $seccomp)"
      [ "$(echo $mounts)" = "$(echo $declared)" ] || fail "$u/$c: mounts [$mounts] are not the declared [$declared]"
      # nothing else writable: a write to the root filesystem is refused
      podman exec "$ctr" sh -c 'touch /probe-write 2>/dev/null' && fail "$u/$c: wrote to /"
      mem=$(podman inspect --format '{{.HostConfig.Memory}}' "$ctr")
      limit=$(plan_q ".units[] | select(.name==\"$u\") | .pods[0].containers[] | select(.name==\"$c\") | .memoryLimit // \"none\"")
      say "$u/$c: uid $user, read-only /, capabilities none, no_new_privs, seccomp filter, writable only [$(echo $mounts)], memory limit $limit ($mem bytes)"
    done
  done
}

# kyc-service and its face sidecar share the pod's tmp volume and loopback, nothing else: kyc-service (uid 185) reads the
# secret the sidecar wrote there and is answered with it; without it the sidecar refuses (401)
sidecar_sharing() {
  local kyc sidecar port=$((BASE + 91)) file ask with without
  kyc=$(ctr_of kyc-service kyc-service) sidecar=$(ctr_of kyc-service face-sidecar)
  podman container exists "$sidecar" || { say "no face sidecar in the kyc pod"; return; }
  file=/tmp/kyc-face-sidecar-$port/token
  # run inside kyc-service's container, as its user: one 2x2 black image (raw RGB), as kyc-service sends them
  ask='tok=; [ "$1" = with ] && tok="Authorization: Bearer $(cat '$file')\r\n"
       exec 3<>/dev/tcp/127.0.0.1/'$port'
       printf "POST /faces HTTP/1.1\r\nHost: localhost\r\n%bX-Width: 2\r\nX-Height: 2\r\nContent-Length: 12\r\nConnection: close\r\n\r\n\0\0\0\0\0\0\0\0\0\0\0\0" "$tok" >&3
       head -1 <&3'
  with=$(podman exec "$kyc" bash -c "$ask" _ with | tr -d '\r')
  without=$(podman exec "$kyc" bash -c "$ask" _ without | tr -d '\r')
  [[ $with == *" 200 "* ]] || fail "kyc-service with the sidecar's secret from $file: '$with'"
  [[ $without == *" 401 "* ]] || fail "the sidecar answered '$without' without the secret"
  say "kyc-service (uid 185) reads the sidecar's secret $file (mode $(podman exec "$kyc" stat -c '%a, owner %u' "$file")) in the pod's shared tmp volume; with it the sidecar answers '$with', without it '$without'"
}

# ------------------------------------------------------------------ host side: receivers, listen

# looked up when used: on a fresh clone the jar exists only after the packaging step
signing_jar() { ls shared-webhook-signing/target/shared-webhook-signing-*.jar 2> /dev/null | grep -v -- '-sources\|-javadoc' | head -1 || true; }
start_host() { # name command... (background, pid and log kept)
  local name=$1; shift
  "$@" > "$LOGS/$name.log" 2>&1 &
  echo $! > "$WORK/host-$name.pid"
}
stop_host_processes() {
  local f
  for f in "$WORK"/host-*.pid; do
    [ -f "$f" ] || continue
    kill "$(cat "$f")" 2> /dev/null || true
    rm -f "$f"
  done
}
receiver() { # name scheme secret port [bind address]
  start_host "$1" java -cp shared-webhook-signing/target/classes deploy/local/WebhookReceiver.java "$2" "$3" "$4" "${5:-127.0.0.1}"
  local i; for i in $(seq 1 120); do grep -q listening "$LOGS/$1.log" 2> /dev/null && return; sleep 0.25; done
  fail "receiver $1 did not start"
}
await_line() { # name pattern [seconds]
  local i; for i in $(seq 1 $(( ${3:-30} * 4 ))); do grep -q -- "$2" "$LOGS/$1.log" 2> /dev/null && return; sleep 0.25; done
  tail -5 "$LOGS/$1.log"; fail "$1: no line matching '$2' within ${3:-30} s"
}

# ------------------------------------------------------------------ the README's curl tour, through the pods' ports

api() { # method port token path [json] [extra curl args...]: the answer's body; fails on a non-2xx
  local m=$1 port=$2 tok=$3 path=$4 body=${5:-} out code; shift 5 || shift $#
  out=$(mktemp)
  if [ -n "$body" ]; then
    code=$(curl -sS -o "$out" -w '%{http_code}' -X "$m" "http://127.0.0.1:$port$path" -H "Authorization: Bearer $tok" \
      -H 'Content-Type: application/json' -d "$body" "$@")
  else
    code=$(curl -sS -o "$out" -w '%{http_code}' -X "$m" "http://127.0.0.1:$port$path" -H "Authorization: Bearer $tok" "$@")
  fi
  REQUESTS=$((REQUESTS + 1))
  [ "${code:0:1}" = 2 ] || { cat "$out"; rm -f "$out"; fail "$m $path answered $code"; }
  cat "$out"; rm -f "$out"
}
REQUESTS=0

tour_wallet() {
  local p k wh sec pay
  p=$(api POST $GW_PORT $GW_ADMIN /admin/v1/projects '{"name":"Container check"}' | jq -r .id)
  GW_PROJECT=$p
  GW_KEY=$(api POST $GW_PORT $GW_ADMIN /admin/v1/projects/$p/keys '{"mode":"test"}' | jq -r .key)
  wh=$(api POST $GW_PORT "$GW_KEY" /api/v1/webhooks "{\"url\":\"http://$HOOK_HOST:$((BASE + 50))/hooks\",\"events\":[\"payment.created\",\"payment.pending\",\"payment.succeeded\"]}")
  GW_WEBHOOK=$(jq -r .id <<< "$wh"); sec=$(jq -r .secret <<< "$wh")
  receiver gw-receiver GATEWAY "$sec" $((BASE + 50)) "$HOOK_BIND"
  pay=$(api POST $GW_PORT "$GW_KEY" /api/v1/payments '{"amount":1000,"currency":"HTG","reference":"order-1001"}' -H 'Idempotency-Key: order-1001')
  local id url; id=$(jq -r .id <<< "$pay"); url=$(jq -r .wallet_url <<< "$pay")
  [ "$(jq -r '.fee, .total' <<< "$pay" | tr '\n' ' ')" = "25 1025 " ] || fail "payment fee/total: $pay"
  local page; page=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$GW_PORT/wallet/${url##*/wallet/}?lang=ht")
  [ "$page" = 200 ] || fail "wallet page answered $page"
  api POST $GW_PORT "$GW_KEY" /api/v1/test_helpers/payments/$id/succeed > /dev/null
  await_line gw-receiver "VERIFIED .*\"payment.succeeded\""
  [ "$(api GET $GW_PORT "$GW_KEY" /api/v1/balance | jq -r .available)" = 1000 ] || fail "balance after the payment"
  api POST $GW_PORT "$GW_KEY" /api/v1/withdrawals '{"amount":500,"destination":{"type":"wallet","msisdn":"+50937000000"},"reference":"wd-1"}' -H 'Idempotency-Key: wd-1' > /dev/null
  api POST $GW_PORT "$GW_KEY" /api/v1/webhooks/$GW_WEBHOOK/rotate_secret > /dev/null
  local dlv; dlv=$(api GET $GW_PORT "$GW_KEY" /api/v1/webhooks/$GW_WEBHOOK/deliveries | jq -r '.data[0].id')
  api POST $GW_PORT "$GW_KEY" /api/v1/webhook_deliveries/$dlv/resend > /dev/null
  say "wallet-gateway: payment $id created (fee 25, total 1025), hosted page 200 (ht), succeeded, balance 1000, withdrawal reserved, secret rotated, delivery resent"
  say "receiver on the host: $(grep -c '^VERIFIED' "$LOGS/gw-receiver.log") deliveries VERIFIED (X-Gateway-Signature), $(grep -c '^REJECTED' "$LOGS/gw-receiver.log" || true) rejected"
  ! grep -q '^REJECTED' "$LOGS/gw-receiver.log" || fail "a wallet delivery was rejected"
}

tour_checkout() {
  local app ep sec pi id
  app=$(api POST $CO_PORT $CO_ADMIN /admin/v1/applications '{"name":"Container check"}' | jq -r .id)
  CO_KEY=$(api POST $CO_PORT $CO_ADMIN /admin/v1/applications/$app/keys '{"mode":"test"}' | jq -r .key)
  CO_KEYED_REQUESTS=0
  ep=$(api POST $CO_PORT "$CO_KEY" /api/v1/webhook_endpoints "{\"url\":\"http://$HOOK_HOST:$((BASE + 51))/hooks\",\"events\":[\"payment_intent.succeeded\",\"refund.succeeded\"]}")
  sec=$(jq -r .secret <<< "$ep")
  receiver co-receiver CHECKOUT "$sec" $((BASE + 51)) "$HOOK_BIND"
  pi=$(api POST $CO_PORT "$CO_KEY" /api/v1/payment_intents '{"amount":"250.00","currency":"HTG","description":"Cart 42"}' -H 'Idempotency-Key: cart-42')
  id=$(jq -r .id <<< "$pi")
  local page; page=$(curl -s -o /dev/null -w '%{http_code}' "$(jq -r .checkout_url <<< "$pi" | sed "s#http://localhost:[0-9]*#http://127.0.0.1:$CO_PORT#")?lang=en")
  [ "$page" = 200 ] || fail "checkout page answered $page"
  api POST $CO_PORT "$CO_KEY" /api/v1/test_helpers/payment_intents/$id/simulate '{"payment_method":"test_card","outcome":"succeeded"}' > /dev/null
  await_line co-receiver "VERIFIED .*\"payment_intent.succeeded\""
  api POST $CO_PORT "$CO_KEY" /api/v1/refunds "{\"payment_intent\":\"$id\",\"amount\":\"100.00\"}" -H 'Idempotency-Key: refund-42-1' > /dev/null
  await_line co-receiver "VERIFIED .*\"refund.succeeded\""
  local st; st=$(api GET $CO_PORT "$CO_KEY" /api/v1/payment_intents/$id)
  [ "$(jq -r '.status + " " + .amount_refunded' <<< "$st")" = "partially_refunded 100.000000" ] || fail "intent after the refund: $st"
  api GET $CO_PORT "$CO_KEY" /api/v1/events > /dev/null
  CO_KEYED_REQUESTS=6   # the requests above made with the key (the operator's are not in the merchant's API log)
  say "checkout-service: intent $id, hosted page 200 (en), succeeded, partial refund 100.00 -> partially_refunded"
  say "receiver on the host: $(grep -c '^VERIFIED' "$LOGS/co-receiver.log") deliveries VERIFIED (Checkout-Signature)"
  ! grep -q '^REJECTED' "$LOGS/co-receiver.log" || fail "a checkout delivery was rejected"
}

tour_kyc() {
  local app sec ver id proof status
  app=$(api POST $KYC_PORT $KYC_ADMIN /admin/v1/applications "{\"name\":\"Container check\",\"return_urls\":[\"https://bank.example/kyc/done\"],\"test_webhook_url\":\"http://$HOOK_HOST:$((BASE + 52))/kyc\"}")
  sec=$(jq -r .test_webhook_secret <<< "$app")
  KYC_KEY=$(api POST $KYC_PORT $KYC_ADMIN /admin/v1/applications/$(jq -r .id <<< "$app")/keys '{"mode":"test"}' | jq -r .key)
  receiver kyc-receiver KYC "$sec" $((BASE + 52)) "$HOOK_BIND"
  ver=$(api POST $KYC_PORT "$KYC_KEY" /api/v1/verifications '{"external_user_id":"user-7","document_types":["passport","national_id"],"return_url":"https://bank.example/kyc/done","locale":"ht"}' -H 'Idempotency-Key: user-7-kyc-1')
  id=$(jq -r .id <<< "$ver")
  local page; page=$(curl -s -o /dev/null -w '%{http_code}' "$(jq -r .verification_url <<< "$ver" | sed "s#http://localhost:[0-9]*#http://127.0.0.1:$KYC_PORT#")")
  [ "$page" = 200 ] || fail "verification page answered $page"
  api POST $KYC_PORT "$KYC_KEY" /api/v1/test_helpers/verifications/$id/complete '{"outcome":"verified"}' > /dev/null
  await_line kyc-receiver "VERIFIED .*\"verification.verified\""
  proof=$(api POST $KYC_PORT "$KYC_KEY" /api/v1/verifications/$id/proof '{}' | jq -r .proof)
  deploy/local/verify-proof.sh "$proof" "http://127.0.0.1:$KYC_PORT/.well-known/jwks-test.json" > "$LOGS/kyc-proof.log" 2>&1 \
    || { cat "$LOGS/kyc-proof.log"; fail "the proof did not verify against jwks-test.json"; }
  grep -q "Signature Verified Successfully" "$LOGS/kyc-proof.log" || fail "proof: $(tail -3 "$LOGS/kyc-proof.log")"
  status=$(api GET $KYC_PORT "$KYC_KEY" /api/v1/subjects/user-7/status | jq -r .status)
  [ "$status" = verified ] || fail "subject status $status"
  local caps; caps=$(curl -fsS "http://127.0.0.1:$KYC_PORT/api/v1/capabilities")
  say "kyc-service: verification $id, hosted page 200, verified, EdDSA proof verified offline with openssl against jwks-test.json, subject verified"
  say "kyc capabilities in the pod: $(jq -c '{mrz_engine: .features.mrz_engine, face_match: .features.face_match, face_model: .features.face_model}' <<< "$caps")"
  say "receiver on the host: $(grep -c '^VERIFIED' "$LOGS/kyc-receiver.log") deliveries VERIFIED (Kyc-Signature)"
}

dashboard_sign_in() {
  local link token jar code page
  link=$(api POST $GW_PORT $GW_ADMIN /admin/v1/projects/$GW_PROJECT/dashboard_links '{"mode":"test"}' | jq -r .url)
  token=${link##*token=}
  jar=$WORK/dashboard.cookies; rm -f "$jar"
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$GW_PORT/dashboard/session/sign_in?token=$token")
  [ "$code" = 200 ] || fail "sign-in page answered $code"
  code=$(curl -s -c "$jar" -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$GW_PORT/dashboard/session/sign_in" --data-urlencode "token=$token")
  [ "$code" = 303 ] || fail "sign-in answered $code"
  grep -q dash_session "$jar" || fail "no dash_session cookie"
  page=$(curl -s -b "$jar" -w '\n%{http_code}' "http://127.0.0.1:$GW_PORT/dashboard/webhooks")
  [ "$(tail -1 <<< "$page")" = 200 ] || fail "dashboard page with the session answered $(tail -1 <<< "$page")"
  grep -q "$GW_WEBHOOK" <<< "$page" || fail "the dashboard does not list the webhook address $GW_WEBHOOK"
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$GW_PORT/dashboard/session/sign_in" --data-urlencode "token=$token")
  [ "$code" = 403 ] || fail "a spent link answered $code"
  say "wallet dashboard: link opened (200), signed in (303 + dash_session), /dashboard/webhooks lists $GW_WEBHOOK, the spent link refused (403)"
}

feed_listen() {
  local pull sec id
  local SIGNING_JAR; SIGNING_JAR=$(signing_jar)
  [ -n "$SIGNING_JAR" ] || fail "shared-webhook-signing jar missing"
  pull=$(api POST $GW_PORT "$GW_KEY" /api/v1/webhooks '{"delivery":"pull","events":["payment.succeeded"]}')
  sec=$(jq -r .secret <<< "$pull")
  receiver listen-receiver GATEWAY "$sec" $((BASE + 53))
  rm -f "$WORK/listen.cursor"   # a cursor of an earlier run's database
  start_host listen java -jar "$SIGNING_JAR" listen --service "http://127.0.0.1:$GW_PORT" --key "$GW_KEY" --secret "$sec" \
    --forward-to "http://127.0.0.1:$((BASE + 53))/hooks" --events payment.succeeded --from start --cursor-file "$WORK/listen.cursor"
  id=$(api POST $GW_PORT "$GW_KEY" /api/v1/payments '{"amount":700,"currency":"HTG","reference":"feed-1"}' -H 'Idempotency-Key: feed-1' | jq -r .id)
  api POST $GW_PORT "$GW_KEY" /api/v1/test_helpers/payments/$id/succeed > /dev/null
  await_line listen-receiver "VERIFIED .*$id" 120
  say "listen: $(grep -m1 'payment.succeeded' "$LOGS/listen.log" | cut -c1-120)"
  say "the host handler VERIFIED the forwarded event with the pull address's secret ($(grep -c '^VERIFIED' "$LOGS/listen-receiver.log") event(s), payment.succeeded of the feed from start)"
  kill "$(cat "$WORK/host-listen.pid")"; rm -f "$WORK/host-listen.pid"
}

memory() {
  local u c ctr pid rss lim
  for u in postgres "${UNITS_SERVICES[@]}"; do
    for c in $(plan_q ".units[] | select(.name==\"$u\") | .pods[0].containers[] | select(.init|not) | .name"); do
      ctr=$(ctr_of "$u" "$c"); pid=$(podman inspect --format '{{.State.Pid}}' "$ctr")
      rss=$(awk '/^VmRSS:/{print $2}' "/proc/$pid/status")
      lim=$(podman inspect --format '{{.HostConfig.Memory}}' "$ctr")
      [ "$lim" -gt 0 ] || fail "$u/$c has no memory limit"
      [ $((rss * 1024)) -lt "$lim" ] || fail "$u/$c RSS $((rss / 1024)) MiB is not under its limit $((lim / 1048576)) MiB"
      say "$u/$c: RSS after the tour $((rss / 1024)) MiB, limit $((lim / 1048576)) MiB"
    done
  done
}

# ------------------------------------------------------------------ the wallet dies and comes back

psql_q() { PGPASSWORD=$PG_PASSWORD psql -X -q -tA -h 127.0.0.1 -p $PG_PORT -U postgres -d platform -c "$1"; }

kill_wallet() {
  local ctr pid n=30 i pending restarts wh port=$((BASE + 54)) got uniq t
  ctr=$(ctr_of wallet-gateway wallet-gateway)
  restarts=$(podman inspect --format '{{.RestartCount}}' "$ctr")
  # a backlog: an address whose receiver takes 2 s an answer; one delivery in flight at a time, in order
  start_host slow-receiver java benchmarks/tools/Receiver.java "$port" "$WORK/slow.tsv" 900
  until (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; do sleep 0.25; done
  wh=$(api POST $GW_PORT "$GW_KEY" /api/v1/webhooks "{\"url\":\"http://127.0.0.1:$port/ok?delay=2000\",\"events\":[\"payment.created\"]}" | jq -r .id)
  for i in $(seq 1 $n); do
    api POST $GW_PORT "$GW_KEY" /api/v1/payments "{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"kill-$i\"}" -H "Idempotency-Key: kill-$i" > /dev/null
  done
  pending=$(psql_q "select count(*) from wallet.outbox_deliveries where destination_id = '$wh' and status <> 'delivered'")
  [ "$pending" -gt 0 ] || fail "no backlog to kill the wallet under: all $n deliveries were already made"
  pid=$(podman inspect --format '{{.State.Pid}}' "$ctr")
  kill -9 "$pid"
  t=$(date +%s%N)
  say "SIGKILL to the wallet JVM (pid $pid): $pending of the $n deliveries to $wh not yet delivered, $(psql_q "select count(*) from wallet.outbox_deliveries where destination_id = '$wh' and lease_until > now()") in flight"
  local deadline=$(( $(date +%s) + 240 ))
  until [ "$(podman inspect --format '{{.RestartCount}}' "$ctr")" -gt "$restarts" ] && probe_once wallet-gateway wallet-gateway readinessProbe; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "the wallet container did not come back"
    sleep 0.25
  done
  say "restarted by its restart policy (restarts: $(podman inspect --format '{{.RestartCount}}' "$ctr")), ready $(secs "$t") s after the kill"
  deadline=$(( $(date +%s) + 180 ))
  until [ "$(psql_q "select count(*) from wallet.outbox_deliveries where destination_id = '$wh' and status <> 'delivered'")" = 0 ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "deliveries still pending: $(psql_q "select status, count(*) from wallet.outbox_deliveries where destination_id = '$wh' group by 1")"
    sleep 0.5
  done
  sleep 1  # the receiver writes its log every 200 ms
  got=$(wc -l < "$WORK/slow.tsv"); uniq=$(cut -f3 "$WORK/slow.tsv" | sort -u | wc -l)
  [ "$uniq" = "$n" ] || fail "the receiver got $uniq distinct events of $n"
  say "what was pending was delivered after the restart: $uniq of $n events at the receiver ($((got - uniq)) sent twice: the one in flight at the kill is sent again once its lease ends, at-least-once)"
  stop_one slow-receiver
}
stop_one() { kill "$(cat "$WORK/host-$1.pid")" 2> /dev/null || true; rm -f "$WORK/host-$1.pid"; }

# ------------------------------------------------------------------ two wallet replicas, 1,000 payments

LOAD_PAYMENTS=${LOAD_PAYMENTS:-1000}
LOAD_ADDRESSES=3

two_replicas() {
  local i port wh ids=() t
  play wallet-gateway-1
  await_ready wallet-gateway-1
  # a project of its own (3 addresses per project and mode)
  local project key
  project=$(api POST $GW_PORT $GW_ADMIN /admin/v1/projects '{"name":"Two replicas"}' | jq -r .id)
  key=$(api POST $GW_PORT $GW_ADMIN /admin/v1/projects/$project/keys '{"mode":"test"}' | jq -r .key)
  # load receivers (benchmarks/tools/Receiver.java: logs each request's event id and whether another request for the
  # same event was still in progress), one per address
  for i in $(seq 1 $LOAD_ADDRESSES); do
    port=$((BASE + 54 + 2 * i))
    start_host "load-receiver-$i" java benchmarks/tools/Receiver.java "$port" "$WORK/load-$i.tsv" 1800
    wh=$(api POST $GW_PORT "$key" /api/v1/webhooks "{\"url\":\"http://127.0.0.1:$port/ok\",\"events\":[\"payment.created\",\"payment.succeeded\"]}" | jq -r .id)
    ids+=("$wh")
  done
  echo "${ids[*]}" > "$WORK/load-addresses"
  for i in $(seq 1 $LOAD_ADDRESSES); do
    until (exec 3<> "/dev/tcp/127.0.0.1/$((BASE + 54 + 2 * i))") 2> /dev/null; do sleep 0.25; done
  done
  t=$(date +%s%N)
  # each payment is created on one replica and succeeded on the other, 8 at a time
  seq 1 "$LOAD_PAYMENTS" | xargs -P 8 -I{} bash -c '
    n={}; a=$1; b=$2; [ $((n % 2)) = 0 ] && { a=$2; b=$1; }
    id=$(curl -fsS -X POST "http://127.0.0.1:$a/api/v1/payments" -H "Authorization: Bearer $3" -H "Content-Type: application/json" \
         -H "Idempotency-Key: load-$n" -d "{\"amount\":1000,\"currency\":\"HTG\",\"reference\":\"load-$n\"}" | jq -r .id) || exit 255
    curl -fsS -o /dev/null -X POST "http://127.0.0.1:$b/api/v1/test_helpers/payments/$id/succeed" -H "Authorization: Bearer $3" || exit 255
  ' _ $GW_PORT $GW2_PORT "$key" || fail "the load's requests failed"
  say "$LOAD_PAYMENTS payments created and succeeded across both replicas ($GW_PORT, $GW2_PORT) in $(secs "$t") s"
  local expected=$((2 * LOAD_PAYMENTS)) deadline=$(( $(date +%s) + 600 )) left
  local in=$(printf "'%s'," "${ids[@]}"); in=${in%,}
  until left=$(psql_q "select count(*) from wallet.outbox_deliveries where destination_id in ($in) and status <> 'delivered'") && [ "$left" = 0 ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$left deliveries still not delivered after 10 minutes"
    sleep 1
  done
  say "every delivery to the $LOAD_ADDRESSES addresses delivered $(secs "$t") s after the load started"
  for i in $(seq 1 $LOAD_ADDRESSES); do
    local wh=${ids[$((i - 1))]} log=$WORK/load-$i.tsv got dup ov
    sleep 1
    got=$(wc -l < "$log"); dup=$(cut -f3 "$log" | sort | uniq -d | wc -l); ov=$(awk -F'\t' '$4 == 1' "$log" | wc -l)
    psql_q "select d.event_id from wallet.outbox_deliveries d where d.destination_id = '$wh' order by d.seq" > "$WORK/load-$i.expected"
    cut -f3 "$log" > "$WORK/load-$i.arrived"
    [ "$(wc -l < "$WORK/load-$i.expected")" = "$expected" ] || fail "address $wh has $(wc -l < "$WORK/load-$i.expected") deliveries, expected $expected"
    [ "$got" = "$expected" ] && [ "$dup" = 0 ] || fail "address $wh: $got requests for $expected events, $dup events delivered more than once"
    [ "$ov" = 0 ] || fail "address $wh: $ov events in flight twice at once"
    # seq is taken when a delivery is written, a lane delivers what is committed: an event of a concurrent transaction
    # that committed first may go before a lower seq. What must hold is each payment's own order (checked below).
    local inv; inv=$(diff "$WORK/load-$i.expected" "$WORK/load-$i.arrived" | grep -c '^>' || true)
    say "address $wh: $got of $expected events, each once, none in flight twice; $inv arrived before a lower seq of another transaction that committed later"
  done
  check_created_first > /dev/null
  say "each payment's payment.created arrived before its payment.succeeded at every address"
}

# per address, each payment's payment.created arrived before its payment.succeeded
check_created_first() {
  local i bad=0
  for i in $(seq 1 $LOAD_ADDRESSES); do
    psql_q "select e.id, e.type, e.object_id from wallet.outbox_events e" > "$WORK/load-events.txt"
    bad=$((bad + $(awk -F'|' 'NR == FNR { t[$1] = $2; o[$1] = $3; next } { id = $1; if (t[id] == "payment.succeeded" && !(o[id] in created)) bad++; if (t[id] == "payment.created") created[o[id]] = 1 } END { print bad + 0 }' "$WORK/load-events.txt" "$WORK/load-$i.arrived")))
  done
  [ "$bad" = 0 ] || fail "$bad payment.succeeded arrived before their payment.created"
  echo ok
}

# ------------------------------------------------------------------ SIGTERM: nothing lost

sigterm_stop() {
  local u ctr code t n_api
  # a last burst that is still being delivered and logged when the stop comes
  for i in $(seq 1 20); do
    api POST $CO_PORT "$CO_KEY" /api/v1/payment_intents '{"amount":"10.00","currency":"HTG"}' -H "Idempotency-Key: stop-$i" > /dev/null
  done
  CO_KEYED_REQUESTS=$((CO_KEYED_REQUESTS + 20))
  for u in "${UNITS_SERVICES[@]}" $( [ -f "$WORK/played-wallet-gateway-1" ] && echo wallet-gateway-1 ); do
    t=$(date +%s%N)
    podman pod stop -t 30 "$(pod_of "$u")" > /dev/null
    ctr=$(ctr_of "$u" "${u%-1}")
    code=$(podman inspect --format '{{.State.ExitCode}}' "$ctr")
    podman logs "$ctr" > "$LOGS/$u.log" 2>&1 || true
    grep -q 'stopped in' "$LOGS/$u.log" || fail "$u: no orderly Quarkus shutdown in its log"
    say "$u: SIGTERM -> exited $code in $(secs "$t") s ($(grep -o 'stopped in [0-9.]*s' "$LOGS/$u.log" | tail -1))"
  done
  local s bad
  for s in kyc checkout wallet; do
    bad=$(psql_q "select count(*) from $s.outbox_deliveries where status = 'pending' and lease_until > now()")
    [ "$bad" = 0 ] || fail "$s: $bad deliveries still leased after the stop"
    say "$s outbox: $(psql_q "select coalesce(string_agg(status || ' ' || n, ', '), 'empty') from (select status, count(*) n from $s.outbox_deliveries group by 1 order by 1) x"); none leased"
  done
  n_api=$(psql_q "select count(*) from checkout.api_logs")
  [ "$n_api" -ge "$CO_KEYED_REQUESTS" ] || fail "checkout's API log has $n_api lines for $CO_KEYED_REQUESTS keyed requests"
  say "checkout API log: $n_api lines for the $CO_KEYED_REQUESTS keyed requests the check made (the last 20 just before SIGTERM)"
}

# ------------------------------------------------------------------ --compose: deploy/compose.yaml with podman-compose

COMPOSE_PROJECT=platform-check
COMPOSE_ADMIN=dev-only-admin-token-compose
compose() {
  # the host ports of the pods' check; host.docker.internal: podman 4.3 knows no "host-gateway", so the host's own
  # address (its first one), where the receivers listen
  KYC_HOST_PORT=$KYC_PORT CHECKOUT_HOST_PORT=$CO_PORT WALLET_HOST_PORT=$GW_PORT ADMIN_TOKEN=$COMPOSE_ADMIN \
    POSTGRES_PASSWORD=$PG_PASSWORD HOST_GATEWAY=$HOOK_BIND \
    podman-compose -p $COMPOSE_PROJECT -f deploy/compose.yaml "$@"
}
compose_ctr() { podman ps -a --filter label=com.docker.compose.project=$COMPOSE_PROJECT --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -1; }
compose_down() {
  compose down -v > "$LOGS/compose-down.log" 2>&1 || true
  podman volume rm -f ${COMPOSE_PROJECT}_pgdata ${COMPOSE_PROJECT}_kyc-tmp > /dev/null 2>&1 || true
  stop_host_processes
}

compose_up() {
  compose_down
  say "$(podman-compose version 2> /dev/null | grep -m1 'podman-compose version' || echo podman-compose)"
  compose up -d > "$LOGS/compose-up.log" 2>&1 || { tail -30 "$LOGS/compose-up.log"; fail "podman-compose up"; }
  local port deadline=$(( $(date +%s) + ${COMPOSE_READY_TIMEOUT:-300} )) svc c
  for port in $KYC_PORT $CO_PORT $GW_PORT; do
    until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/q/health/ready")" = 200 ]; do
      if [ "$(date +%s)" -ge "$deadline" ]; then
        for svc in postgres kyc-service kyc-face-sidecar checkout-service wallet-gateway; do
          c=$(compose_ctr $svc); say "$svc: $(podman inspect --format '{{.State.Status}}, restarts {{.RestartCount}}' "$c" 2> /dev/null)"
          podman logs --tail 15 "$c" 2>&1 | sed 's/^/      /'
        done
        fail "port $port not ready within ${COMPOSE_READY_TIMEOUT:-300} s"
      fi
      sleep 1
    done
  done
  for svc in postgres kyc-service kyc-face-sidecar checkout-service wallet-gateway; do
    c=$(compose_ctr $svc)
    say "$svc: container $c $(podman inspect --format '{{.State.Status}} as user {{.Config.User}}, restarts {{.RestartCount}}' "$c")"
  done
}

# kyc-service reads the sidecar's secret from the shared volume and asks it, from its own container (as kyc-service
# does, uid 185), over the project's network: two photographs of one person and one of another, real detections
# and descriptors; the distances say the same person is near and the other far
compose_face() {
  local kyc side port=8091 file dir ask i img wh out d_same d_other
  kyc=$(compose_ctr kyc-service) side=$(compose_ctr kyc-face-sidecar)
  file=/tmp/kyc-face-sidecar-$port/token dir=/tmp/kyc-face-sidecar-$port
  [ "$(podman exec "$kyc" stat -c '%u %a' "$dir")" = "185 700" ] || fail "secret directory: $(podman exec "$kyc" stat -c '%u %a' "$dir")"
  [ "$(podman exec "$kyc" stat -c '%u %a' "$file")" = "185 600" ] || fail "secret file: $(podman exec "$kyc" stat -c '%u %a' "$file")"
  say "the sidecar's secret in kyc-service's view: $file owner 185 mode 600, directory mode 700 (what kyc-service requires)"
  # $1 with|without, $2 width, $3 height, $4 raw RGB file in the shared /tmp
  ask='tok=; [ "$1" = with ] && tok="Authorization: Bearer $(cat '$file')\r\n"
       exec 3<>/dev/tcp/kyc-face-sidecar/'$port'
       printf "POST /faces HTTP/1.0\r\nHost: kyc-face-sidecar\r\n%bX-Width: %s\r\nX-Height: %s\r\nContent-Length: %s\r\nConnection: close\r\n\r\n" "$tok" "$2" "$3" "$(stat -c %s "$4")" >&3
       cat "$4" >&3; cat <&3'
  head -c 12 /dev/zero > "$WORK/black.rgb"
  podman cp "$WORK/black.rgb" "$kyc:/tmp/check-black.rgb"
  [[ $(podman exec "$kyc" bash -c "$ask" _ without 2 2 /tmp/check-black.rgb | head -1) == *" 401 "* ]] || fail "the sidecar answered without the secret"
  i=0
  for img in max-Paul.jpeg max-Paul2.jpeg astronaut.png; do
    i=$((i + 1))
    wh=$(java deploy/container-check/RawRgb.java "kyc-service/src/test/resources/faces/$img" "$WORK/face-$i.rgb")
    podman cp "$WORK/face-$i.rgb" "$kyc:/tmp/check-face-$i.rgb"
    podman exec "$kyc" bash -c "$ask" _ with $wh /tmp/check-face-$i.rgb | tr -d '\r' > "$WORK/face-$i.http"
    head -1 "$WORK/face-$i.http" | grep -q ' 200 ' || { head -5 "$WORK/face-$i.http"; fail "/faces for $img"; }
    sed '1,/^$/d' "$WORK/face-$i.http" > "$WORK/face-$i.json"
    [ "$(jq '.faces | length' "$WORK/face-$i.json")" -ge 1 ] || fail "no face found in $img"
    say "$img ($wh): $(jq -c '{faces: (.faces | length), score: (.faces[0].score * 100 | round / 100), millis}' "$WORK/face-$i.json")"
  done
  podman exec "$kyc" rm -f /tmp/check-black.rgb /tmp/check-face-1.rgb /tmp/check-face-2.rgb /tmp/check-face-3.rgb
  read -r d_same d_other < <($PY - "$WORK"/face-1.json "$WORK"/face-2.json "$WORK"/face-3.json <<'PY'
import json, math, sys
d = [json.load(open(f))["faces"][0]["descriptor"] for f in sys.argv[1:]]
dist = lambda a, b: math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
print(f"{dist(d[0], d[1]):.3f} {dist(d[0], d[2]):.3f}")
PY
)
  say "ResNet-34 descriptor distance: Paul Rudd's two photographs $d_same, Paul Rudd and Eileen Collins $d_other"
  $PY -c "import sys; sys.exit(0 if $d_same < 0.6 <= $d_other else 1)" || fail "distances $d_same / $d_other: the same person should be below 0.6 and another above"
  local caps; caps=$(curl -fsS "http://127.0.0.1:$KYC_PORT/api/v1/capabilities")
  [ "$(jq -r .features.face_match <<< "$caps")" = true ] || fail "kyc capabilities: face_match $(jq -c .features <<< "$caps")"
  say "kyc capabilities: $(jq -c '{face_match: .features.face_match, face_model: .features.face_model}' <<< "$caps")"
}

# a live verification through the hosted page, as a customer makes one: consent, passport, a photograph of Paul Rudd as
# the passport's page and another one as the selfie. kyc-service runs its real checks: the MRZ cannot be read on a
# photograph (retry_required, mrz_unreadable), and the face check, through the sidecar and its secret, must pass
compose_kyc_live() {
  local app key ver vid url base faces=kyc-service/src/test/resources/faces v st i code
  app=$(api POST $KYC_PORT $KYC_ADMIN /admin/v1/applications '{"name":"Compose live check","return_urls":["https://bank.example/kyc/done"]}' | jq -r .id)
  key=$(api POST $KYC_PORT $KYC_ADMIN /admin/v1/applications/$app/keys '{"mode":"live"}' | jq -r .key)
  ver=$(api POST $KYC_PORT "$key" /api/v1/verifications '{"external_user_id":"live-1","document_types":["passport"],"return_url":"https://bank.example/kyc/done"}' -H 'Idempotency-Key: live-1')
  vid=$(jq -r .id <<< "$ver") url=$(jq -r .verification_url <<< "$ver")
  base="http://127.0.0.1:$KYC_PORT/v/${url##*/v/}"
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base")" = 200 ] || fail "hosted page"
  for step in "consent -d decision=accept" "document_type -d document_type=passport" \
              "document -F front=@$faces/max-Paul.jpeg" "selfie -F selfie=@$faces/max-Paul2.jpeg"; do
    set -- $step
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$base/$1" "$2" "$3")
    [ "$code" = 303 ] || fail "hosted page step $1 answered $code"
  done
  for i in $(seq 1 90); do
    v=$(api GET $KYC_PORT "$key" /api/v1/verifications/$vid)
    st=$(jq -r .status <<< "$v")
    case $st in created|started|processing|submitted|pending) sleep 1 ;; *) break ;; esac
  done
  say "live verification $vid: $(jq -c '{status, reason_codes, face: .result.checks.face.status, mrz: .result.checks.mrz.status}' <<< "$v")"
  [ "$st" != technical_error ] || fail "the live decision ended technical_error (kyc-service's log: $(podman logs --tail 200 "$(compose_ctr kyc-service)" 2>&1 | grep -o 'decision of [^"]*' | tail -1))"
  [ "$(jq -r .result.checks.face.status <<< "$v")" = passed ] || fail "the face check did not pass: $v"
}

# ------------------------------------------------------------------ main

finish() {
  local rc=$?
  stop_host_processes
  if [ $rc != 0 ]; then
    printf '\n   the check failed (exit %s); logs in %s\n' "$rc" "$LOGS"
    podman ps -a --format '   {{.Names}} {{.Status}}' 2> /dev/null | grep -E 'postgres|kyc|checkout|wallet' || true
  fi
  if [ "$keep" = 1 ] && [ "$mode" != down ]; then
    printf '\n   --keep: the pods stay up: kyc http://127.0.0.1:%s  checkout http://127.0.0.1:%s  wallet http://127.0.0.1:%s%s  postgres 127.0.0.1:%s (postgres / %s)\n   remove them with: %s --down\n' \
      $KYC_PORT $CO_PORT $GW_PORT "$([ -f "$WORK/played-wallet-gateway-1" ] && echo " and $GW2_PORT")" $PG_PORT $PG_PASSWORD "$0"
  elif [ "$mode" = compose ]; then
    compose_down
  elif [ "$mode" != down ]; then
    down_all
  fi
  [ $rc = 0 ] && summary "passed" || summary "FAILED"
  exit $rc
}

main() {
  if [ "$mode" = down ]; then
    step "remove the pods, their volumes and the check's host processes" down_all
    command -v podman-compose > /dev/null && step "remove the compose project $COMPOSE_PROJECT" compose_down
    exit 0
  fi
  if [ "$mode" = compose ]; then
    HOOK_HOST=host.docker.internal HOOK_BIND=$(hostname -I | awk '{print $1}')
    KYC_ADMIN=$COMPOSE_ADMIN CO_ADMIN=$COMPOSE_ADMIN GW_ADMIN=$COMPOSE_ADMIN
    trap finish EXIT
    trap "exit 130" INT TERM
    step "prerequisites (podman, runc, podman-compose, CNI dnsname, debootstrap, jq, psql)" prerequisites
    step "package the services (./mvnw package)" package_jars
    step "base images (debian:bookworm-slim, postgres:15-bookworm)" base_images
    step "build the images" build_images
    step "podman-compose up: deploy/compose.yaml, every service ready" compose_up
    step "curl tour: wallet-gateway" tour_wallet
    step "curl tour: checkout-service" tour_checkout
    step "curl tour: kyc-service" tour_kyc
    step "kyc-service asks its face sidecar with the shared secret: real faces" compose_face
    step "kyc-service live verification through the hosted page: the face check passes" compose_kyc_live
    exit 0
  fi
  trap finish EXIT
  trap "exit 130" INT TERM
  step "prerequisites (podman, runc, debootstrap, jq, psql, python3-yaml)" prerequisites
  step "package the services (./mvnw package)" package_jars
  step "base images (debian:bookworm-slim, postgres:15-bookworm)" base_images
  step "build the images" build_images
  step "render the dev overlay" render
  step "translate for podman kube play" translate $([ "$mode" = full ] && echo 2 || echo 1)
  down_all
  fresh_volumes
  step "Postgres (the dev overlay's StatefulSet)" start_postgres
  if [ "$mode" = quick ]; then
    UNITS_SERVICES=(wallet-gateway)
    step "wallet-gateway pod started, not ready before its Job" start_services wallet-gateway
    step "migrate Job" run_jobs wallet-gateway
    step "readiness through the manifests' probes" ready_after_jobs wallet-gateway
    step "pod security as declared" security
    exit 0
  fi
  step "service pods started, not ready before their Jobs" start_services "${UNITS_SERVICES[@]}"
  step "migrate Jobs on the empty database" run_jobs "${UNITS_SERVICES[@]}"
  step "readiness through the manifests' probes" ready_after_jobs "${UNITS_SERVICES[@]}"
  step "pod security as declared" security
  step "kyc-service and its face sidecar share what the pod declares" sidecar_sharing
  step "curl tour: wallet-gateway" tour_wallet
  step "curl tour: checkout-service" tour_checkout
  step "curl tour: kyc-service" tour_kyc
  step "dashboard sign-in" dashboard_sign_in
  step "event feed with listen" feed_listen
  step "memory after the tour" memory
  step "kill the wallet container" kill_wallet
  step "two wallet replicas, $LOAD_PAYMENTS payments" two_replicas
  step "SIGTERM stop, nothing lost" sigterm_stop
}

# one line: bash has read it whole before the check starts, so editing this file during a run cannot disturb it
main "$@"; exit $?
