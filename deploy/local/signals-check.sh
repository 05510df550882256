#!/usr/bin/env bash
# Checks that deploy/local/run.sh leaves nothing running when it is stopped (issue 22): starts it with the embedded
# PostgreSQL in a process group of its own, waits until the three services answer, sends the signal to the whole
# group (INT: a terminal's Ctrl-C; HUP: a closed terminal) or TERM to the script alone, then checks that no process
# of that run is left: the services, the MonCash stand-in, the face sidecar, and the embedded PostgreSQL (which is in
# a session of its own, so it is found through its postmaster.pid).
#
#   deploy/local/signals-check.sh [INT|HUP|TERM]     (default INT; needs ports 8081-8083 free)
set -uo pipefail
cd "$(dirname "$0")/../.."
signal=${1:-INT}
state=.run-local
log=$(mktemp)
[ -f "$state/postgres/port" ] && { echo "an embedded PostgreSQL of an earlier run is still up ($state/postgres); stop it first" >&2; exit 2; }

# as from a terminal: INT and HUP at their default, the script leading its own process group
env --default-signal=INT,HUP,QUIT,TERM PLATFORM_RUN_PG=embedded setsid deploy/local/run.sh --moncash-sandbox >"$log" 2>&1 &
pgid=$!
for _ in $(seq 1 480); do
  grep -q "All three services are ready" "$log" && break
  kill -0 "$pgid" 2>/dev/null || { echo "run.sh exited early:"; tail -n 20 "$log"; exit 1; }
  sleep 0.5
done
grep -q "All three services are ready" "$log" || { echo "run.sh not ready in 240 s"; tail -n 20 "$log"; kill -TERM -- -"$pgid"; exit 1; }
postmaster=$(head -n1 "$state/postgres/data/postmaster.pid")
members=$(ps -o pid= -g "$pgid" | tr '\n' ' ')
echo "run.sh ready: process group $pgid ($members), embedded PostgreSQL pid $postmaster; sending SIG$signal"

if [ "$signal" = TERM ]; then kill -TERM "$pgid"; else kill -"$signal" -- -"$pgid"; fi
left=
for _ in $(seq 1 60); do
  left=$( { ps -o pid=,args= -g "$pgid"; ps -o pid=,args= -p "$postmaster"; } 2>/dev/null)
  [ -z "$left" ] && break
  sleep 0.5
done
if [ -n "$left" ]; then
  echo "FAIL: left running 30 s after SIG$signal:"; echo "$left"
  kill -KILL -- -"$pgid" 2>/dev/null; kill -INT "$postmaster" 2>/dev/null
  exit 1
fi
echo "PASS: nothing left after SIG$signal (services, stand-in, sidecar and the embedded PostgreSQL all stopped)"
rm -f "$log"
