#!/usr/bin/env bash
# A pgBackRest backup of deploy/ha's cluster now, from its primary: incremental when a full backup exists, full
# otherwise, and when the newest full one is older than BACKUP_FULL_EVERY_DAYS (7; --full forces one). Prints the backup's
# label (e.g. BACKUP_LABEL=20261128-064512F_20261128-070102I). pgBackRest's user guide, "Perform a Backup" / "Backup
# Types"; repo1-retention-full (up.sh) counts full backups: without a new full one now and then nothing would expire.
set -euo pipefail
HA_DIR=${HA_DIR:-/var/lib/platform-ha}
# shellcheck source=deploy/ha/lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "run as root (pgBackRest runs as the postgres user)" >&2; exit 1; }
[ -f "$PGBR/pgbackrest.conf" ] || { echo "no cluster under $HA_DIR (deploy/ha/up.sh first)" >&2; exit 1; }
labels() { pgbackrest_all info --output=json | python3 -c '
import json, sys
for s in json.load(sys.stdin):
    for b in s.get("backup", []):
        print(b["type"], b["label"], b["timestamp"]["start"])'; }

type=incr
newest_full=$(labels | awk '$1 == "full" {t = $3} END {print t + 0}')
if [ "${1:-}" = --full ] || [ "$newest_full" = 0 ] \
  || (( $(date +%s) - newest_full > ${BACKUP_FULL_EVERY_DAYS:-7} * 86400 )); then type=full; fi
before=$(labels | awk '{print $2}')
pgbackrest_all --type="$type" backup >&2
label=$(labels | awk '{print $2}' | grep -vxF -f <(echo "$before") | tail -1)
[ -n "$label" ] || { echo "the backup ended without a new label (see $PGBR/log)" >&2; exit 1; }
echo "BACKUP_TYPE=$type"
echo "BACKUP_LABEL=$label"
