#!/usr/bin/env bash
# A signed call of the Meridian developer API with curl (docs/api.md). The API test suite runs this
# script against a started server (apps/server/src/modules/apikeys/apikeys.api.test.ts).
#
#   MERIDIAN_API_KEY=mk_… MERIDIAN_API_SECRET=… [MERIDIAN_URL=http://localhost:3000] \
#     scripts/api-request.sh METHOD PATH_WITH_QUERY [JSON_BODY]
#
# signature = hex HMAC-SHA256(secret, timestamp + METHOD + path?query + body), timestamp in ms.
# Needs bash, GNU date (%N), openssl and curl.
set -euo pipefail
method="${1:?METHOD}"
target="${2:?PATH (with ?query)}"
body="${3:-}"
url="${MERIDIAN_URL:-http://localhost:3000}"
: "${MERIDIAN_API_KEY:?set MERIDIAN_API_KEY}" "${MERIDIAN_API_SECRET:?set MERIDIAN_API_SECRET}"
timestamp=$(($(date +%s%N) / 1000000))
signature=$(printf '%s%s%s%s' "$timestamp" "$method" "$target" "$body" \
  | openssl dgst -sha256 -hmac "$MERIDIAN_API_SECRET" -hex | sed 's/^.*= //')
args=(-sS -X "$method" "$url$target"
  -H "X-MERIDIAN-APIKEY: $MERIDIAN_API_KEY"
  -H "X-MERIDIAN-TIMESTAMP: $timestamp"
  -H "X-MERIDIAN-SIGNATURE: $signature")
if [ -n "$body" ]; then args+=(-H 'Content-Type: application/json' --data-raw "$body"); fi
curl "${args[@]}"
echo
