# The failover phase of benchmarks/run.sh (HA=1, sourced): the three services on deploy/ha's replicated Postgres
# (three nodes under Patroni, synchronous replication, HAProxy's read-write address) under steady load, through four
# faults of the primary:
#   1. failover:        kill -9 of the leader's Patroni and its postmaster together (the node is lost; a replica is
#                       promoted once the leader lock expires); the node then rejoins as a replica (deploy/ha/up.sh
#                       restarts its Patroni, which rewinds it with pg_rewind) before the next fault;
#   2. postmaster only: kill -9 of the leader's postmaster alone (its Patroni lives: with primary_start_timeout 0 it
#                       hands over to the synchronous standby at once, else it restarts Postgres in place);
#   3. failover back:   the new leader is lost the same way as in 1;
#   4. switchover:      a planned `patronictl switchover` (after the node lost in 3 has rejoined).
# Each fault: FAILOVER_SECONDS of load (FAILOVER_LEAD before the fault), then every acknowledged write is looked up.
# Measured per fault: creations answered 2xx and missing from the database or without their event (must be 0); money
# movements (a refund of its own intent, a withdrawal with its own reference, retried with the same Idempotency-Key)
# applied twice (must be 0) or acknowledged and missing; webhook deliveries lost / delivered twice; feed events lost /
# read twice; time from the fault until creations succeed again (after the longest stretch without a 2xx creation);
# the answers meanwhile (503 with Retry-After, 500, connection errors); whether the services answer afterwards with
# the same processes (no restart).

FAILOVER_SECONDS=${FAILOVER_SECONDS:-60}
FAILOVER_LEAD=${FAILOVER_LEAD:-15}
FAILOVER_RATE=${FAILOVER_RATE:-5}         # creations/s per service
FAILOVER_MONEY_RATE=${FAILOVER_MONEY_RATE:-1}   # refunds/s (checkout) and withdrawals/s (wallet)
FAILOVER_WARMUP=${FAILOVER_WARMUP:-30}     # seconds of the same load before the first fault, not measured
HA_DIR=${HA_DIR:-/var/lib/platform-ha}

ha_load_env() {
  if ! [ -f "$HA_DIR/env" ] || ! curl -s -o /dev/null "http://127.0.0.1:$((${HA_PORT_BASE:-15400} + 31))/"; then
    log "starting the replicated Postgres: deploy/ha/up.sh"
    "$ROOT/deploy/ha/up.sh" >"$LOGS/ha-up.log" 2>&1 || { log "deploy/ha/up.sh failed (see $LOGS/ha-up.log)"; return 1; }
  fi
  # shellcheck disable=SC1091
  . "$HA_DIR/env"
  PGPORT=${DB_REACTIVE_URL##*:}; PGPORT=${PGPORT%%/*}
  export PGPASSWORD=$DB_PASSWORD BENCH_DB_USER=$DB_USER BENCH_DB_PASSWORD=$DB_PASSWORD
  PSQL=(psql -X -q -h 127.0.0.1 -p "$PGPORT" -U "$DB_USER" -d platform -v ON_ERROR_STOP=1)
  # a fresh database each run, as the throwaway cluster is: what an earlier run left (its keys are gone) stays out
  # (as the superuser, whose password stays in $HA_DIR/secrets; the database belongs to the services' role)
  PGPASSWORD=$(sed -n 's/^SUPERUSER_PASSWORD=//p' "$HA_DIR/secrets") psql -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres \
    -c "DROP DATABASE IF EXISTS platform WITH (FORCE)" -c "CREATE DATABASE platform OWNER $DB_USER" >/dev/null \
    && PGPASSWORD=$(sed -n 's/^SUPERUSER_PASSWORD=//p' "$HA_DIR/secrets") psql -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d platform \
      -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
}

patroni() { patronictl -c "$HA_PATRONI_CONFIG" "$@"; }
ha_members() { patroni list -f json 2>/dev/null; }
# ha_role path -> the node whose Patroni REST API answers 200 on path (/primary: the leader, /sync: the sync standby);
# asked of each node's REST API directly (patronictl starts a Python interpreter: seconds on a loaded machine)
ha_role() {
  local n
  for n in node1 node2 node3; do
    [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$((${HA_PORT_BASE:-15400} + 20 + ${n#node}))$1")" = 200 ] \
      && { echo "$n"; return 0; }
  done
  echo ""
}
ha_leader() { ha_role /primary; }
# promoted_ms node -> when that node's Patroni last promoted itself (epoch ms, from its log)
promoted_ms() {
  local at; at=$(grep -h 'promoted self to leader' "$HA_DIR/$1/patroni.log" | tail -1 | cut -c1-23)
  [ -n "$at" ] && date -d "${at/,/.}" +%s%3N
}
# ha_healthy: a leader and two replicas streaming on its timeline
ha_healthy() {
  ha_members | python3 -c "
import json, sys
m = json.load(sys.stdin)
lead = [x for x in m if x['Role'] == 'Leader' and x['State'] == 'running']
reps = [x for x in m if x['Role'] != 'Leader' and x['State'] in ('running', 'streaming') and lead and x.get('TL') == lead[0].get('TL')]
sys.exit(0 if len(lead) == 1 and len(reps) == 2 else 1)"
}
ha_wait_healthy() { local i; for i in $(seq 1 "${1:-120}"); do ha_healthy && return 0; sleep 1; done; return 1; }
postmaster_pid() { head -1 "$HA_DIR/$1/data/postmaster.pid" 2>/dev/null; }

# failover_setup: per service one owner with a push address to a receiver and a second owner with a pull address whose
# feed the follower reads (creations alternate between the two); wallet: a funded
# balance for the withdrawals; checkout: succeeded intents, one for each refund to come (each phase refunds intents
# no refund has touched yet, so an intent refunded twice is money moved twice)
failover_setup() {
  local svc port o k
  declare -gA FO_OWNER=() FO_KEY=() FO_RPORT=() FO_FEED_OWNER=() FO_FEED_KEY=()
  for svc in "${ACTIVE[@]}"; do
    [ -n "${UP[$svc]:-}" ] || continue
    port=${PORT[$svc]}
    next_rport; FO_RPORT[$svc]=$RPORT
    start_receiver "$RPORT" "$LOGS/recv-failover-$svc.log" 7200 || return 1
    read -r o k < <(tenant "$svc" "$port" "bench-failover" "http://127.0.0.1:$RPORT/ok") || true
    [ -n "${k:-}" ] || { log "$svc: no failover tenant"; return 1; }
    FO_OWNER[$svc]=$o; FO_KEY[$svc]=$k
    # the feed is signed with a pull address's secret, and a kyc mode with a webhook URL has no feed: the follower
    # reads a second owner with a pull address, and the creations alternate between the two owners
    o=""; k=""
    read -r o k < <(tenant "$svc" "$port" "bench-failover-feed" pull) || true
    [ -n "${k:-}" ] || { log "$svc: no failover feed tenant"; return 1; }
    FO_FEED_OWNER[$svc]=$o; FO_FEED_KEY[$svc]=$k
  done
  if [ -n "${FO_KEY[wallet]:-}" ]; then
    local i pay
    for i in 1 2; do
      pay=$(api_post "${PORT[wallet]}" "${FO_KEY[wallet]}" /api/v1/payments "{\"amount\":5000000,\"currency\":\"HTG\",\"reference\":\"fund-$i\"}" | jfield id)
      curl -fsS -o /dev/null -X POST "http://127.0.0.1:${PORT[wallet]}/api/v1/test_helpers/payments/$pay/succeed" -H "Authorization: Bearer ${FO_KEY[wallet]}"
    done
  fi
  if [ -n "${FO_KEY[checkout]:-}" ]; then
    local n=$(( FAILOVER_MONEY_RATE * (FAILOVER_SECONDS * 4 + FAILOVER_WARMUP) + 50 ))
    log "checkout: $n succeeded intents for the refunds"
    load "http://127.0.0.1:${PORT[checkout]}/api/v1/payment_intents" "${FO_KEY[checkout]}" '{"amount":"10.000000","currency":"HTG"}' \
      "$n" 8 300 "$LOGS/failover-intents.tsv" >/dev/null
    awk -F'\t' '$2 ~ /^2/ {print $3}' "$LOGS/failover-intents.tsv" \
      | xargs -P 8 -I{} curl -fsS -o /dev/null -X POST "http://127.0.0.1:${PORT[checkout]}/api/v1/test_helpers/payment_intents/{}/simulate" \
          -H "Authorization: Bearer ${FO_KEY[checkout]}" -H 'Content-Type: application/json' -d '{"payment_method":"test_card","outcome":"succeeded"}'
  fi
}

# failover_config phase -> the Failover tool's properties
failover_config() {
  local phase=$1 i=0 svc f="$LOGS/failover-$1.properties" skip
  { echo "out=$LOGS/failover-$phase.tsv"; echo "seconds=$FAILOVER_SECONDS"; echo "drain=$([ "$phase" = warmup ] && echo 0 || echo 25)"; } > "$f"
  for svc in "${ACTIVE[@]}"; do
    [ -n "${FO_KEY[$svc]:-}" ] || continue
    i=$((i + 1))
    {
      echo "svc.$i.name=$svc"; echo "svc.$i.base=http://127.0.0.1:${PORT[$svc]}"
      echo "svc.$i.createPath=${CREATE_PATH[$svc]}"; echo "svc.$i.createBody=${CREATE_BODY[$svc]}"
      echo "svc.$i.keys=${FO_KEY[$svc]},${FO_FEED_KEY[$svc]}"; echo "svc.$i.rate=$FAILOVER_RATE"; echo "svc.$i.feedKey=${FO_FEED_KEY[$svc]}"
      case $svc in
        wallet)
          echo "svc.$i.moneyPath=/api/v1/withdrawals"; echo "svc.$i.moneyKey=${FO_KEY[$svc]}"; echo "svc.$i.moneyRate=$FAILOVER_MONEY_RATE"
          echo "svc.$i.moneyBody={\"amount\":100,\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937000000\"},\"reference\":\"{key}\"}" ;;
        checkout)
          # each phase refunds its own slice of the succeeded intents, one refund each
          sql "SELECT id FROM checkout.payment_intents i WHERE application_id = '${FO_OWNER[checkout]}' AND status = 'succeeded'
               AND NOT EXISTS (SELECT 1 FROM checkout.refunds r WHERE r.payment_intent_id = i.id) ORDER BY id" \
            > "$LOGS/failover-targets-$phase.txt"
          echo "svc.$i.moneyPath=/api/v1/refunds"; echo "svc.$i.moneyKey=${FO_KEY[$svc]}"; echo "svc.$i.moneyRate=$FAILOVER_MONEY_RATE"
          echo "svc.$i.moneyTargets=$LOGS/failover-targets-$phase.txt"
          echo "svc.$i.moneyBody={\"payment_intent\":\"{target}\",\"amount\":\"1.00\"}" ;;
      esac
    } >> "$f"
  done
  echo "$f"
}

# failover_fault phase: the fault itself; sets FO_FAULT_MS (epoch ms) and FO_NOTE
failover_fault() {
  local leader=$FO_LEADER
  FO_NOTE="leader $leader"
  case $1 in
    failover|failover_back)
      FO_FAULT_MS=$(now_ms)
      kill -9 "$(cat "$HA_DIR/$leader/patroni.pid")" "$(postmaster_pid "$leader")" 2>/dev/null
      FO_LOST_NODE=$leader
      local i new=""
      for i in $(seq 1 120); do new=$(ha_leader); [ -n "$new" ] && [ "$new" != "$leader" ] && break; sleep 0.25; done
      FO_NOTE="kill -9 of $leader's Patroni and postmaster; $new promoted itself $(( $(promoted_ms "$new") - FO_FAULT_MS )) ms after (its Patroni log)" ;;
    postmaster)
      local seen; seen=$(wc -l < "$HA_DIR/$leader/patroni.log")
      FO_FAULT_MS=$(now_ms)
      kill -9 "$(postmaster_pid "$leader")"
      # its Patroni lives: it restarts Postgres in place, or (primary_start_timeout 0) hands over to the synchronous
      # standby at once; its log says which
      local j now=""
      for j in $(seq 1 120); do
        tail -n +$((seen + 1)) "$HA_DIR/$leader/patroni.log" | grep -q 'Primary crashed. Failing over\|starting as readonly\|starting primary after failure' && break
        sleep 0.25
      done
      if tail -n +$((seen + 1)) "$HA_DIR/$leader/patroni.log" | grep -q 'Primary crashed. Failing over'; then
        for j in $(seq 1 120); do now=$(ha_leader); [ -n "$now" ] && [ "$now" != "$leader" ] && break; sleep 0.25; done
        FO_NOTE="kill -9 of $leader's postmaster alone; its Patroni handed over at once (primary_start_timeout 0): $now promoted itself $(( $(promoted_ms "$now") - FO_FAULT_MS )) ms after; $leader rejoined by itself"
      else
        FO_NOTE="kill -9 of $leader's postmaster alone; Patroni restarted it in place"
      fi ;;
    switchover)
      local candidate
      candidate=$(ha_role /sync)
      local asked; asked=$(now_ms)
      patroni switchover --leader "$leader" --candidate "$candidate" --force >"$LOGS/switchover.log" 2>&1
      # the switch starts when the leader's Patroni receives it (patronictl itself takes seconds to start on a busy
      # machine): counted from there
      local at; at=$(grep -h 'received switchover request' "$HA_DIR/$leader/patroni.log" | tail -1 | cut -c1-23)
      FO_FAULT_MS=$(date -d "${at/,/.}" +%s%3N)
      FO_NOTE="patronictl switchover $leader -> $candidate (the command took $(( $(now_ms) - asked )) ms; its request reached $leader $(( FO_FAULT_MS - asked )) ms after it started; $candidate promoted itself $(( $(promoted_ms "$candidate") - FO_FAULT_MS )) ms after that)" ;;
  esac
}

failover_phase() { # phase label
  local phase=$1 label=$2 cfg lpid svc pids_before="" pids_after=""
  log "failover: $label: ${FAILOVER_SECONDS}s of load, the fault after ${FAILOVER_LEAD}s"
  for svc in "${!FO_KEY[@]}"; do pids_before="$pids_before ${SVC_PID[$svc:${PORT[$svc]}]}"; done
  cfg=$(failover_config "$phase")
  FO_LEADER=$(ha_leader)
  java -Xmx512m -cp "$TOOLS_CP" Failover "$cfg" >"$LOGS/failover-$phase.out" 2>&1 &
  lpid=$!
  sleep "$FAILOVER_LEAD"
  failover_fault "$phase"
  log "failover: $label: $FO_NOTE"
  wait "$lpid"
  for svc in "${!FO_KEY[@]}"; do pids_after="$pids_after ${SVC_PID[$svc:${PORT[$svc]}]}"; done
  # every delivery of the phase reaches the receiver (leases taken before the fault expire and are sent again)
  for svc in "${!FO_KEY[@]}"; do
    wait_delivered "$svc" "'${FO_OWNER[$svc]}'" "$LOGS/recv-failover-$svc.log" "$LOGS/failover-expected-$svc.tsv" 120 \
      || log "$svc: deliveries still missing 120 s after the load"
  done
  failover_measure "$phase" "$label" "$( [ "$pids_before" = "$pids_after" ] && echo yes || echo no)"
}

# failover_measure phase label same_pids: looks up every acknowledged write and records the phase's figures
failover_measure() {
  local phase=$1 label=$2 P="failover.$1" svc present="$LOGS/failover-$1-present.tsv" twice=0 n probe probes=""
  : > "$present"
  for svc in "${!FO_KEY[@]}"; do
    local o=${FO_OWNER[$svc]} f=${FO_FEED_OWNER[$svc]}
    # creations of both owners; deliveries of the push owner; the feed of the pull owner
    "${PSQL[@]}" -tA -F $'\t' -c "SELECT '$svc', 'object', id FROM ${OBJ_TABLE[$svc]} WHERE ${OWNER_COL[$svc]} IN ('$o', '$f')
      UNION ALL SELECT '$svc', 'event', object_id FROM $svc.outbox_events WHERE owner_id IN ('$o', '$f') AND type = '${CREATED_EVENT[$svc]}'
      UNION ALL SELECT '$svc', 'feed', id || E'\t' || (extract(epoch FROM COALESCE(committed_at, created_at)) * 1000)::bigint
        FROM $svc.outbox_events WHERE owner_id = '$f' AND type = '${CREATED_EVENT[$svc]}'" >> "$present"
    expected_deliveries "$svc" "'$o'" "$LOGS/failover-expected-$svc.tsv"
    python3 "$BENCH/tools/analyze.py" delivery "$LOGS/failover-expected-$svc.tsv" "$LOGS/recv-failover-$svc.log" /ok \
      | sed "s/^/$svc./" >> "$LOGS/failover-$phase-delivery.kv"
    probe=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:${PORT[$svc]}${CREATE_PATH[$svc]}" \
      -H "Authorization: Bearer ${FO_KEY[$svc]}" -H 'Content-Type: application/json' -H "Idempotency-Key: probe-$phase-$(date +%s%N)" \
      -d "${CREATE_BODY[$svc]//\{n\}/probe-$phase}")
    probes="$probes $svc:$probe"
  done
  if [ -n "${FO_KEY[wallet]:-}" ]; then
    "${PSQL[@]}" -tA -F $'\t' -c "SELECT 'wallet', 'money', id FROM wallet.withdrawals WHERE project_id = '${FO_OWNER[wallet]}'" >> "$present"
    n=$(sql "SELECT count(*) FROM (SELECT reference FROM wallet.withdrawals WHERE project_id = '${FO_OWNER[wallet]}'
             GROUP BY reference HAVING count(*) > 1) t")
    twice=$((twice + n))
    # the balance moved exactly by what the withdrawals say: credited payments = available + reserved + completed
    n=$(sql "SELECT (SELECT COALESCE(sum(amount), 0) FROM wallet.payments WHERE project_id = '${FO_OWNER[wallet]}' AND status = 'succeeded')
             - (SELECT COALESCE(sum(available + reserved), 0) FROM wallet.balances WHERE project_id = '${FO_OWNER[wallet]}')
             - (SELECT COALESCE(sum(total), 0) FROM wallet.withdrawals WHERE project_id = '${FO_OWNER[wallet]}' AND status = 'completed')")
    record "$P.wallet_balance_gap" "$n"
  fi
  if [ -n "${FO_KEY[checkout]:-}" ]; then
    "${PSQL[@]}" -tA -F $'\t' -c "SELECT 'checkout', 'money', id FROM checkout.refunds WHERE application_id = '${FO_OWNER[checkout]}'" >> "$present"
    n=$(sql "SELECT count(*) FROM (SELECT payment_intent_id FROM checkout.refunds WHERE application_id = '${FO_OWNER[checkout]}'
             GROUP BY payment_intent_id HAVING count(*) > 1) t")
    twice=$((twice + n))
  fi
  record "$P.label" "$label"
  record "$P.fault_ms" "$FO_FAULT_MS"
  record "$P.note" "$FO_NOTE"
  record "$P.money_twice" "$twice"
  record "$P.same_processes" "$3"
  record "$P.probes" "${probes# }"
  python3 "$BENCH/tools/analyze.py" failover "$LOGS/failover-$phase.tsv" "$FO_FAULT_MS" "$present" "$LOGS/failover-$phase-delivery.kv" \
    | while IFS='=' read -r k v; do record "$P.$k" "$v"; done
}

failover_run() {
  ha_healthy || "$ROOT/deploy/ha/up.sh" >"$LOGS/ha-up-before.log" 2>&1
  ha_wait_healthy 120 || { record note.failover "the replicated Postgres is not healthy (patronictl list)"; return 1; }
  failover_setup || { record note.failover "setup failed"; return 1; }
  log "failover: ${FAILOVER_WARMUP}s of the same load to warm the services up (not measured)"
  local warm; warm=$(FAILOVER_SECONDS=$FAILOVER_WARMUP failover_config warmup)
  java -Xmx512m -cp "$TOOLS_CP" Failover "$warm" >"$LOGS/failover-warmup.out" 2>&1
  # every fault starts from three healthy nodes: the node lost in one fault rejoins before the next
  failover_phase failover "failover: leader's Patroni + postmaster killed (-9)"
  log "failover: $FO_LOST_NODE rejoins (deploy/ha/up.sh: its Patroni rewinds it with pg_rewind)"
  local t0; t0=$(now_ms)
  "$ROOT/deploy/ha/up.sh" >"$LOGS/ha-rejoin-1.log" 2>&1
  ha_wait_healthy 180 && record failover.rejoin_1 "$FO_LOST_NODE back as a replica in $(( $(now_ms) - t0 )) ms ($(grep -q 'running pg_rewind from' "$HA_DIR/$FO_LOST_NODE/patroni.log" && echo "rewound by pg_rewind" || echo "no pg_rewind in its log"))" \
    || record failover.rejoin_1 "$FO_LOST_NODE did not rejoin within 180 s"
  failover_phase postmaster "postmaster alone killed (-9), its Patroni alive"
  ha_wait_healthy 180 || record failover.rejoin_postmaster "the cluster was not healthy within 180 s after the postmaster fault"
  failover_phase failover_back "failover back: the new leader lost the same way"
  log "failover: $FO_LOST_NODE rejoins"
  t0=$(now_ms)
  "$ROOT/deploy/ha/up.sh" >"$LOGS/ha-rejoin-2.log" 2>&1
  ha_wait_healthy 180 && record failover.rejoin_2 "$FO_LOST_NODE back as a replica in $(( $(now_ms) - t0 )) ms ($(grep -q 'running pg_rewind from' "$HA_DIR/$FO_LOST_NODE/patroni.log" && echo "rewound by pg_rewind" || echo "no pg_rewind in its log"))" \
    || record failover.rejoin_2 "$FO_LOST_NODE did not rejoin within 180 s"
  failover_phase switchover "planned patronictl switchover"
  for svc in "${!FO_RPORT[@]}"; do stop_receiver "${FO_RPORT[$svc]}"; done
  python3 "$BENCH/tools/analyze.py" failover-report "$RESULTS" "$BENCH/results/failover-latest.md"
}
