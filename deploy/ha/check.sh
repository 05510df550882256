#!/usr/bin/env bash
# Shows that deploy/ha's doors refuse a caller without credentials; exits 1 when one lets it in.
set -uo pipefail
HA_DIR=${HA_DIR:-/var/lib/platform-ha}
BASE=${HA_PORT_BASE:-15400}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
bad=0
refused() { if [ "$2" = yes ]; then echo "refused: $1"; else echo "OPEN: $1"; bad=1; fi; }
for n in 1 2 3; do
  PGPASSWORD= "$PGBIN/psql" -X -w -h 127.0.0.1 -p $((BASE + 10 + n)) -U postgres -d postgres -c 'SELECT 1' >/dev/null 2>&1 \
    && refused "psql as postgres without password, node$n over TCP" no || refused "psql as postgres without password, node$n over TCP" yes
  runuser -u postgres -- env PGPASSWORD= "$PGBIN/psql" -X -w -h "$HA_DIR/node$n" -p $((BASE + 10 + n)) -U postgres -d postgres -c 'SELECT 1' >/dev/null 2>&1 \
    && refused "psql as postgres without password, node$n over its socket" no || refused "psql as postgres without password, node$n over its socket" yes
  grep -qE '^[^#]*trust' "$HA_DIR/node$n/data/pg_hba.conf" && refused "node$n pg_hba.conf has no trust line" no || refused "node$n pg_hba.conf has no trust line" yes
done
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$((BASE + 21))/restart")
[ "$code" = 401 ] && refused "Patroni POST /restart without auth ($code)" yes || refused "Patroni POST /restart without auth ($code)" no
code=$(curl -s -o /dev/null -w '%{http_code}' -X PATCH -d '{}' "http://127.0.0.1:$((BASE + 21))/config")
[ "$code" = 401 ] && refused "Patroni PATCH /config without auth ($code)" yes || refused "Patroni PATCH /config without auth ($code)" no
ETCDCTL_API=3 etcdctl --endpoints="127.0.0.1:$BASE" put /service/platform-ha/probe x >/dev/null 2>&1 \
  && refused "etcdctl put without auth" no || refused "etcdctl put without auth" yes
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((BASE + 31))/")
[ "$code" = 401 ] && refused "HAProxy stats without auth ($code)" yes || refused "HAProxy stats without auth ($code)" no
ports="$BASE $((BASE + 1)) $((BASE + 11)) $((BASE + 12)) $((BASE + 13)) $((BASE + 21)) $((BASE + 22)) $((BASE + 23)) $((BASE + 30)) $((BASE + 31))"
open=$(ss -Hltn | awk '{print $4}' | while read -r a; do for p in $ports; do [ "${a##*:}" = "$p" ] && [ "${a%:*}" != 127.0.0.1 ] && echo "$a"; done; done)
[ -z "$open" ] && refused "every port listens on 127.0.0.1 only" yes || refused "ports beyond 127.0.0.1: $open" no
exit $bad
