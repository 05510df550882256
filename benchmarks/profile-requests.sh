#!/usr/bin/env bash
# Where one service's CPU goes per creation and per read: a throwaway Postgres (as run.sh), one service, a warm-up,
# then one measured phase per kind without a profiler and one with JFR sampling Java stacks every millisecond. Prints requests/s and the service's
# CPU per request split into user and kernel time (/proc/<pid>/stat utime, stime), then the profile summary.
#
#   benchmarks/profile-requests.sh wallet            # create and read
#   KINDS=read SECONDS_PHASE=20 benchmarks/profile-requests.sh checkout
#
# Environment: KINDS ("create read"), SEED (3000 objects), WARMUP (30 s per kind), SECONDS_PHASE (15), USERS (16),
# JAVA_OPTS (-Xmx512m; with -XX:NativeMemoryTracking=summary the JVM's own account of its memory is kept after
# each kind, nmt-<kind>.txt), NO_JFR=1 (no profile), HOLD_SECONDS (keep the service up at the end),
# MIGRATION=job (the schema migrated first as the Kubernetes Job does, the service started without Flyway, as a pod), EXTRA_ENV (more service environment, e.g. "QUARKUS_LOG_LEVEL=WARN"). Output:
# benchmarks/target/profile/<timestamp>/ (profile-<svc>-<kind>.txt, the .jfr, the service's log).
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 kyc|checkout|wallet" >&2; exit 2; }
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
SVC=$1
KINDS=${KINDS:-create read}
SEED=${SEED:-3000}
WARMUP=${WARMUP:-30}
SECONDS_PHASE=${SECONDS_PHASE:-15}
USERS=${USERS:-16}
JAVA_OPTS=${JAVA_OPTS:--Xmx512m}
KYC_RATE=${KYC_RATE:-100000}
LOGS="$BENCH/target/profile/$(date -u +%Y%m%dT%H%M%SZ)"
WORK=$(mktemp -d /tmp/bench-profile.XXXXXX)
TOOLS_CP="$WORK/tools"
RESULTS="$LOGS/results.kv"
mkdir -p "$LOGS"; chmod 755 "$WORK"
# shellcheck source=lib/common.sh
source "$BENCH/lib/common.sh"
declare -gA RECV_PID=()

cleanup() {
  trap - EXIT INT TERM
  for k in "${!SVC_PID[@]}"; do stop_service "${k%%:*}" "${k##*:}"; done
  pg_stop
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

fresh_secrets
build_tools || { echo "could not compile the tools" >&2; exit 1; }
pg_init || exit 1

port=${PORT[$SVC]}
prepare_schema "$SVC" || exit 1
start_service "$SVC" "$port" || exit 1
pid=${SVC_PID[$SVC:$port]}
read -r owner key < <(tenant "$SVC" "$port" "bench-profile")
[ -n "${key:-}" ] || { log "no credentials"; exit 1; }
log "$SVC ready in $READY_MS ms; seeding $SEED objects"
load "http://127.0.0.1:$port${CREATE_PATH[$SVC]}" "$key" "${CREATE_BODY[$SVC]}" "$SEED" "$USERS" 120 "$LOGS/seed.tsv" >/dev/null
ids="$LOGS/ids.csv"
sql "SELECT id FROM ${OBJ_TABLE[$SVC]} WHERE ${OWNER_COL[$SVC]} = '$owner' LIMIT 5000" > "$ids"

cat > "$WORK/sample.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event>
</configuration>
JFC

ticks() { awk '{print $14, $15}' "/proc/$pid/stat"; }   # utime stime (clock ticks; the comm field has no space here)
# every thread's name and CPU ticks (utime + stime), to split a phase's CPU by kind of thread
threads() { for t in /proc/"$pid"/task/*/stat; do sed -E 's/^[0-9]+ \((.*)\) [A-Za-z] (.*)$/\1\t\2/' "$t" 2>/dev/null \
  | awk -F'\t' '{split($2, f, " "); print $1 "\t" f[11] + f[12]}'; done; }
hz=$(getconf CLK_TCK)
for kind in $KINDS; do
  if [ "$kind" = create ]; then body=${CREATE_BODY[$SVC]}; url="http://127.0.0.1:$port${CREATE_PATH[$SVC]}"
  else body="GET:$ids"; url="http://127.0.0.1:$port${READ_PATH[$SVC]}"; fi
  log "$SVC $kind: ${WARMUP}s warm-up"
  load "$url" "$key" "$body" 100000000 "$USERS" "$WARMUP" "$LOGS/warm-$kind.tsv" >/dev/null
  threads > "$LOGS/threads0-$kind.tsv"
  read -r u0 s0 < <(ticks)
  out=$(load "$url" "$key" "$body" 100000000 "$USERS" "$SECONDS_PHASE" "$LOGS/phase-$kind.tsv")
  read -r u1 s1 < <(ticks)
  threads > "$LOGS/threads1-$kind.tsv"
  sent=$(sed -n 's/.*sent=\([0-9]*\).*/\1/p' <<<"$out"); rps=$(sed -n 's/.*rps=\([0-9.]*\).*/\1/p' <<<"$out")
  python3 - "$SVC" "$kind" "$sent" "$rps" "$u0" "$s0" "$u1" "$s1" "$hz" "$out" <<'PY' | tee -a "$LOGS/summary.txt"
import sys
svc, kind, sent, rps, u0, s0, u1, s1, hz, out = sys.argv[1:]
n = max(1, int(sent)); hz = int(hz)
user = (int(u1) - int(u0)) * 1000 / hz / n; sys_ = (int(s1) - int(s0)) * 1000 / hz / n
print(f"{svc} {kind}: {rps} req/s, service CPU {user + sys_:.3f} ms per request (user {user:.3f}, kernel {sys_:.3f}); {out}")
PY
  python3 - "$LOGS/threads0-$kind.tsv" "$LOGS/threads1-$kind.tsv" "$sent" "$hz" <<'PY' | tee -a "$LOGS/summary.txt"
import collections, re, sys
def read(path):
    by = collections.Counter()
    for line in open(path):
        name, _, ticks = line.rstrip("\n").partition("\t")
        kind = ("event loops" if name.startswith("vert.x-eventloo") else "JIT compiler" if "Compiler" in name
                else "GC" if name.startswith(("GC ", "G1 ", "VM Thread")) else "worker threads" if name.startswith("executor-thread")
                else re.sub(r"[-#]?[0-9]+$", "", name))
        by[kind] += int(ticks or 0)
    return by
a, b = read(sys.argv[1]), read(sys.argv[2]); n = max(1, int(sys.argv[3] or 0)); hz = int(sys.argv[4])
parts = sorted(((b[k] - a[k]) * 1000 / hz / n, k) for k in b if b[k] > a[k])[::-1]
print("  by thread, ms per request: " + ", ".join(f"{k} {v:.3f}" for v, k in parts[:8]))
PY
  log "$SVC after $kind: RSS $(rss_mib "$pid") MiB"
  jcmd "$pid" VM.native_memory summary > "$LOGS/nmt-$kind.txt" 2>/dev/null || true
  [ -n "${NO_JFR:-}" ] && continue
  log "$SVC $kind: ${SECONDS_PHASE}s more under JFR"
  jcmd "$pid" JFR.start name=p settings="$WORK/sample.jfc" >/dev/null 2>&1
  load "$url" "$key" "$body" 100000000 "$USERS" "$SECONDS_PHASE" "$LOGS/jfr-$kind.tsv" >/dev/null
  jcmd "$pid" JFR.dump name=p filename="$LOGS/profile-$SVC-$kind.jfr" >/dev/null 2>&1
  jcmd "$pid" JFR.stop name=p >/dev/null 2>&1
  python3 "$BENCH/tools/analyze.py" jfr "$LOGS/profile-$SVC-$kind.jfr" 40 > "$LOGS/profile-$SVC-$kind.txt" 2>&1 || true
done
# how much of the RSS is freed native memory glibc still holds (the JVM asks it back: JDK 17.0.9+)
jcmd "$pid" System.trim_native_heap > "$LOGS/trim.txt" 2>&1 || true
log "$SVC after trimming the native heap: RSS $(rss_mib "$pid") MiB ($(tail -1 "$LOGS/trim.txt"))"
cp "$LOGS/$SVC-$port.log" "$LOGS/service.log" 2>/dev/null || true
log "profiles in $LOGS"
if [ -n "${HOLD_SECONDS:-}" ]; then log "$SVC (pid $pid) stays up ${HOLD_SECONDS}s for inspection"; sleep "$HOLD_SECONDS"; fi
