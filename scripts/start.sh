#!/usr/bin/env bash
# One command: install, migrate and seed local D1, build, and run the console, the gateway and a
# few simulated boards on this machine. Ctrl-C stops everything.
#
# Ports (environment): PORT (console, 8787), MQTT_PORT (gateway MQTT, 1883), WS_PORT (gateway MQTT
# over WebSocket, 8883, "off" disables), SMTP_PORT (the local mail sink the demo mailer delivers to,
# which prints every mail; 2525, "off" leaves the port to an SMTP server of your own), SMS_PORT (the local
# text-message sink, which prints every text and lists them at /messages; 2526, "off" likewise). A busy port, or any part that fails to start or stops,
# stops everything with a message naming the part, and the command exits non-zero.
# SSO_DEMO=1 also starts a local OpenID provider (scripts/oidc-idp.mjs, on OIDC_PORT, 9400) and points ACME's
# single sign-on at it (decision 0121): "Continue with single sign-on" with company ID ACME.
# SSO_DEMO=saml starts a local SAML 2.0 identity provider instead (scripts/saml-idp.mjs, on SAML_IDP_PORT, 8790;
# decision 0122) and points ACME's single sign-on at it, the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

PORT=${PORT:-8787}
MQTT_PORT=${MQTT_PORT:-1883}
WS_PORT=${WS_PORT:-8883}
SMTP_PORT=${SMTP_PORT:-2525}
SMS_PORT=${SMS_PORT:-2526}
OIDC_PORT=${OIDC_PORT:-9400}
SAML_IDP_PORT=${SAML_IDP_PORT:-8790}
SSO_DEMO=${SSO_DEMO:-}
export GATEWAY_SECRET=${GATEWAY_SECRET:-local-gateway-secret}

fail() {
  echo >&2
  echo "npm start: $*" >&2
  exit 1
}

# Whether nothing listens on 127.0.0.1:<port> (binding it is the only sure test).
port_free() {
  node -e "require('net').createServer().once('error', () => process.exit(1)).listen(+process.argv[1], '127.0.0.1', function () { this.close() })" "$1"
}

for spec in "PORT:$PORT:console" "MQTT_PORT:$MQTT_PORT:gateway MQTT" "WS_PORT:$WS_PORT:gateway WebSocket" "SMTP_PORT:$SMTP_PORT:mail sink" "SMS_PORT:$SMS_PORT:text-message sink"; do
  IFS=: read -r var port part <<<"$spec"
  [ "$port" = off ] && continue
  port_free "$port" || fail "port $port for the $part is already in use (another npm start?). Stop what uses it, or choose another port: $var=<port> npm start"
done

npm_install .
npm_install gateway
build_console

pids=()
declare -A part_of=()
# Each part runs in its own process group (setsid), so stopping it also stops what it started
# (wrangler's workerd, for example).
cleanup() {
  trap - EXIT INT TERM
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  for _ in 1 2 3 4 5; do
    local alive=0
    for p in "${pids[@]}"; do kill -0 -- "-$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 1
  done
  for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_part() {
  # start_part <name> <command...>: runs a part in the background and remembers its name.
  local name=$1; shift
  setsid "$@" &
  pids+=($!)
  part_of[$!]=$name
}

# Waits until <probe> succeeds while the part's process is alive; fails naming the part otherwise.
wait_for() {
  local name=$1 pid=$2 seconds=$3; shift 3
  for _ in $(seq 1 "$seconds"); do
    "$@" && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      local code=0
      wait "$pid" || code=$?
      fail "the $name failed to start (exit $code; its output is above). Stopping everything."
    fi
    sleep 1
  done
  fail "the $name did not become ready within $seconds s. Stopping everything."
}

# Mail (sign-in codes, reset links, invites, alerts) is delivered to a local sink that prints it.
if [ "$SMTP_PORT" != off ]; then
  start_part "mail sink" node scripts/smtp-sink.mjs "$SMTP_PORT"
  wait_for "mail sink" "${pids[-1]}" 10 bash -c "exec 2>/dev/null 3<>/dev/tcp/127.0.0.1/$SMTP_PORT"
fi

# Texts (reset codes) go to a local sink that prints them: http://127.0.0.1:$SMS_PORT/messages lists them.
if [ "$SMS_PORT" != off ]; then
  start_part "text-message sink" node scripts/sms-sink.mjs "$SMS_PORT"
  wait_for "text-message sink" "${pids[-1]}" 10 curl -fs -o /dev/null "http://127.0.0.1:$SMS_PORT/messages"
fi

start_part console env PORT="$PORT" SMTP_PORT="${SMTP_PORT/off/2525}" SMS_PORT="${SMS_PORT/off/2526}" bash scripts/serve-local.sh
wait_for console "${pids[-1]}" 120 curl -fs -o /dev/null "http://127.0.0.1:$PORT/login"

# The demo OpenID provider, and ACME's single sign-on pointed at it through the admin API (the break-glass
# admin stays the seeded ACME admin, so passwords keep working).
if [ "$SSO_DEMO" = 1 ]; then
  port_free "$OIDC_PORT" || fail "OIDC_PORT $OIDC_PORT (demo OpenID provider) is in use"
  start_part "OpenID provider" node scripts/oidc-idp.mjs "$OIDC_PORT" "http://127.0.0.1:$PORT"
  wait_for "OpenID provider" "${pids[-1]}" 10 curl -fs -o /dev/null "http://127.0.0.1:$OIDC_PORT/health"
  token=$(curl -fs -H 'Content-Type: application/json' -d '{"companyId":"ACME","userName":"admin@acme.example","password":"Acme#Demo2026"}' \
    "http://127.0.0.1:$PORT/api/admin/user/login" | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).token))')
  curl -fs -o /dev/null -H "Authorization: $token" -H 'Content-Type: application/json' \
    -d "{\"enabled\":true,\"protocol\":\"oidc\",\"oidcIssuer\":\"http://127.0.0.1:$OIDC_PORT\",\"oidcClientId\":\"keyless-console\",\"oidcClientSecret\":\"demo-oidc-client-secret\",\"oidcScopes\":\"openid email profile groups\",\"jitEnabled\":true,\"jitDefaultRoleId\":4}" \
    "http://127.0.0.1:$PORT/api/admin/company/sso" || fail "could not point ACME's single sign-on at the demo OpenID provider"
fi

# The demo SAML identity provider, and ACME's single sign-on pointed at it (its entity id, SSO and SLO addresses
# and signing certificate, read from the running IdP) through the same admin API call.
if [ "$SSO_DEMO" = saml ]; then
  port_free "$SAML_IDP_PORT" || fail "SAML_IDP_PORT $SAML_IDP_PORT (demo SAML identity provider) is in use"
  start_part "SAML identity provider" node scripts/saml-idp.mjs --port "$SAML_IDP_PORT"
  idp="http://127.0.0.1:$SAML_IDP_PORT"
  wait_for "SAML identity provider" "${pids[-1]}" 10 curl -fs -o /dev/null "$idp/metadata"
  token=$(curl -fs -H 'Content-Type: application/json' -d '{"companyId":"ACME","userName":"admin@acme.example","password":"Acme#Demo2026"}' \
    "http://127.0.0.1:$PORT/api/admin/user/login" | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).token))')
  curl -fs "$idp/cert" | IDP="$idp" node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.stringify({enabled:true,protocol:"saml",idpEntityId:process.env.IDP+"/metadata",idpSsoUrl:process.env.IDP+"/sso",idpSloUrl:process.env.IDP+"/slo",idpCertificate:s,jitEnabled:true,jitDefaultRoleId:4})))' |
    curl -fs -o /dev/null -H "Authorization: $token" -H 'Content-Type: application/json' -d @- "http://127.0.0.1:$PORT/api/admin/company/sso" ||
    fail "could not point ACME's single sign-on at the demo SAML identity provider"
fi

if [ -f gateway/src/main.js ]; then
  mkdir -p gateway/data
  start_part gateway env WORKER_URL="http://127.0.0.1:$PORT" MQTT_PORT="$MQTT_PORT" WS_PORT="$WS_PORT" node gateway/src/main.js
  wait_for gateway "${pids[-1]}" 30 bash -c "exec 2>/dev/null 3<>/dev/tcp/127.0.0.1/$MQTT_PORT"
  # Three simulated ACME boards (device ids 1-3) that report a door event and stay connected.
  for id in 1 2 3; do
    start_part "simulated board $id" bash -c "exec node gateway/sim/board.js --id $id --password 'Board#Demo2026' --url mqtt://127.0.0.1:$MQTT_PORT \
      --event door.opened --listen 86400 > gateway/data/board-$id.log 2>&1"
  done
fi

ws_line="ws://127.0.0.1:$WS_PORT"
[ "$WS_PORT" = off ] && ws_line="(WebSocket off)"
mail_line="smtp://127.0.0.1:$SMTP_PORT   (every mail is printed here, never sent on)"
[ "$SMTP_PORT" = off ] && mail_line="off: the demo mailer delivers to 127.0.0.1:2525"
sms_line="http://127.0.0.1:$SMS_PORT/messages   (every text is printed here, never sent on)"
[ "$SMS_PORT" = off ] && sms_line="off: the console texts through 127.0.0.1:2526"
cat <<MSG

  Console:  http://127.0.0.1:$PORT   (admin API: /api/admin, OpenAPI: /api/openapi.json)
  Gateway:  mqtt://127.0.0.1:$MQTT_PORT   $ws_line
  Mail:     $mail_line
  Texts:    $sms_line
$([ "$SSO_DEMO" = 1 ] && echo "  SSO:      http://127.0.0.1:$OIDC_PORT (OpenID provider; company ACME: admin@acme.example, auditor@acme.example, nuria.nueva@acme.example; any password)")
$([ "$SSO_DEMO" = saml ] && echo "  SSO:      http://127.0.0.1:$SAML_IDP_PORT (SAML identity provider; company ACME: admin@acme.example, auditor@acme.example, new.hire@acme.example; password Saml#Demo2026)")
  Demo logins are printed above. Ctrl-C stops everything.

MSG

# Everything runs until Ctrl-C; if any part stops on its own, say which and stop the rest.
set +e
wait -n "${pids[@]}"
code=$?
for p in "${pids[@]}"; do
  if ! kill -0 "$p" 2>/dev/null; then
    fail "the ${part_of[$p]} stopped (exit $code; its output is above). Stopping everything."
  fi
done
fail "a part stopped (exit $code). Stopping everything."
