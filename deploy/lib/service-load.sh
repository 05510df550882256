# What deploy/upgrade-check.sh and deploy/ha/drill.sh both drive on a service (sourced): its requests, its owners
# (one whose webhooks go to local receivers, one whose event feed is read) and the properties of the load tool
# (deploy/upgrade-check/UpgradeLoad.java). Talks to 127.0.0.1 only.

answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
json_field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" | head -1; }
wait_ready() { # port pid -> 0 when /q/health/ready answers 200 within READY_TIMEOUT s, 1 when the process ends first
  local deadline=$(( $(date +%s) + READY_TIMEOUT ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    curl -fs -o /dev/null "http://127.0.0.1:$1/q/health/ready" && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.25
  done
  return 1
}

# service_requests module: s (kyc|checkout|wallet), i (1|2|3), and what its load sends
service_requests() {
  mod=$1
  case $mod in
    kyc-service)
      s=kyc i=1
      create_path=/api/v1/verifications create_body='{"external_user_id":"uc-{n}"}' read_prefix=/api/v1/verifications/
      advance_path='/api/v1/test_helpers/verifications/{id}/complete' advance_body='{"outcome":"verified"}' advance_status=verified
      money_path="" money_body="" money_read="" ;;
    checkout-service)
      s=checkout i=2
      create_path=/api/v1/payment_intents create_body='{"amount":"10.000000","currency":"HTG"}' read_prefix=/api/v1/payment_intents/
      advance_path='/api/v1/test_helpers/payment_intents/{id}/simulate' advance_body='{"payment_method":"test_card","outcome":"succeeded"}'
      advance_status='succeeded|partially_refunded'   # a refund comes after
      money_path=/api/v1/refunds money_body='{"payment_intent":"{target}","amount":"1.00"}' money_read=/api/v1/refunds/ ;;
    wallet-gateway)
      s=wallet i=3
      create_path=/api/v1/payments create_body='{"amount":1000,"currency":"HTG","reference":"uc-{n}"}' read_prefix=/api/v1/payments/
      advance_path='/api/v1/test_helpers/payments/{id}/succeed' advance_body='{}' advance_status=succeeded
      money_path=/api/v1/withdrawals money_body='{"amount":100,"destination":{"type":"wallet","msisdn":"+50937000000"},"reference":"{key}"}'
      money_read=/api/v1/withdrawals/ ;;
  esac
}
admin() { curl -fsS -X POST "http://127.0.0.1:$1$2" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d "$3"; }
api() { curl -fsS -X POST "http://127.0.0.1:$1$3" -H "Authorization: Bearer $2" -H 'Content-Type: application/json' -d "$4"; }
# make_owners port (needs s, recv_ports, ADMIN_TOKEN): PUSH_OWNER/PUSH_KEY (webhook addresses at the receivers), PULL_OWNER/PULL_KEY (its feed is read)
make_owners() {
  local port=$1 p urls=()
  for p in "${recv_ports[@]}"; do urls+=("http://127.0.0.1:$p/ok"); done
  case $s in
    kyc)
      PUSH_OWNER=$(admin "$port" /admin/v1/applications "{\"name\":\"uc push\",\"return_urls\":[\"https://example.com/done\"],\"webhook_url\":\"${urls[0]}\",\"test_webhook_url\":\"${urls[0]}\"}" | json_field id)
      PUSH_KEY=$(admin "$port" "/admin/v1/applications/$PUSH_OWNER/keys" '{"mode":"test"}' | json_field key)
      PULL_OWNER=$(admin "$port" /admin/v1/applications '{"name":"uc pull","return_urls":["https://example.com/done"]}' | json_field id)
      PULL_KEY=$(admin "$port" "/admin/v1/applications/$PULL_OWNER/keys" '{"mode":"test"}' | json_field key) ;;
    checkout)
      PUSH_OWNER=$(admin "$port" /admin/v1/applications '{"name":"uc push"}' | json_field id)
      PUSH_KEY=$(admin "$port" "/admin/v1/applications/$PUSH_OWNER/keys" '{"mode":"test"}' | json_field key)
      for p in "${urls[@]}"; do api "$port" "$PUSH_KEY" /api/v1/webhook_endpoints "{\"url\":\"$p\"}" > /dev/null; done
      PULL_OWNER=$(admin "$port" /admin/v1/applications '{"name":"uc pull"}' | json_field id)
      PULL_KEY=$(admin "$port" "/admin/v1/applications/$PULL_OWNER/keys" '{"mode":"test"}' | json_field key)
      api "$port" "$PULL_KEY" /api/v1/webhook_endpoints '{"delivery":"pull"}' > /dev/null ;;
    wallet)
      local all='["payment.created","payment.pending","payment.succeeded","payment.failed","payment.expired","withdrawal.requested","withdrawal.processing","withdrawal.completed","withdrawal.rejected","withdrawal.cancelled","withdrawal.failed"]'
      PUSH_OWNER=$(admin "$port" /admin/v1/projects '{"name":"uc push"}' | json_field id)
      PUSH_KEY=$(admin "$port" "/admin/v1/projects/$PUSH_OWNER/keys" '{"mode":"test"}' | json_field key)
      for p in "${urls[@]}"; do api "$port" "$PUSH_KEY" /api/v1/webhooks "{\"url\":\"$p\",\"events\":$all}" > /dev/null; done
      PULL_OWNER=$(admin "$port" /admin/v1/projects '{"name":"uc pull"}' | json_field id)
      PULL_KEY=$(admin "$port" "/admin/v1/projects/$PULL_OWNER/keys" '{"mode":"test"}' | json_field key)
      api "$port" "$PULL_KEY" /api/v1/webhooks "{\"delivery\":\"pull\",\"events\":$all}" > /dev/null
      # a balance for the withdrawals
      local pay; pay=$(api "$port" "$PUSH_KEY" /api/v1/payments '{"amount":50000000,"currency":"HTG","reference":"uc-fund"}' | json_field id)
      api "$port" "$PUSH_KEY" "/api/v1/test_helpers/payments/$pay/succeed" '{}' > /dev/null ;;
  esac
  [ -n "$PUSH_KEY" ] && [ -n "$PULL_KEY" ]
}
load_config() { # -> the load tool's properties (needs dir, the service_requests variables, PUSH_KEY, PULL_KEY)
  cat <<PROPS
baseFile=$dir/base
stopFile=$dir/stop
out=$dir/load.tsv
maxSeconds=900
keys=$PUSH_KEY,$PULL_KEY
feedKey=$PULL_KEY
rate=${CREATE_RATE:-4}
readRate=${READ_RATE:-4}
createPath=$create_path
createBody=$create_body
readPrefix=$read_prefix
advancePath=$advance_path
advanceBody=$advance_body
advanceStatus=$advance_status
advanceRate=${ADVANCE_RATE:-1.5}
PROPS
  [ -z "$money_path" ] || printf 'moneyPath=%s\nmoneyBody=%s\nmoneyReadPrefix=%s\nmoneyRate=%s\n' \
    "$money_path" "$money_body" "$money_read" "${MONEY_RATE:-1}"
}
