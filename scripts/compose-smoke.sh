#!/usr/bin/env bash
# Smoke test of docker-compose.yml on a machine with a Docker engine: builds and starts the stack,
# waits until every service is healthy (`--wait`), seeds stock, places an order and checks that it
# ends RESERVED. Leaves the stack running for a look around unless COMPOSE_SMOKE_DOWN=1.
#
#   bash scripts/compose-smoke.sh
#
# Host ports are compose's defaults (ORDERS_HOST_PORT, INVENTORY_HOST_PORT, ... move them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
case "${1:-}" in
  '') ;;
  -h | --help) sed -n '2,/^set -euo/p' scripts/compose-smoke.sh | sed '$d' | sed -E 's/^# ?//'; exit 0 ;;
  *) printf "compose-smoke.sh: unknown argument '%s'; it takes none (valid flags: --help)\n" "$1" >&2; exit 2 ;;
esac

log() { printf '[compose-smoke] %s\n' "$*"; }
fail() { log "FAILED: $*"; docker compose ps || true; docker compose logs --tail 50 orders inventory loyalty || true; exit 1; }

command -v docker >/dev/null 2>&1 || { log 'docker is not installed'; exit 1; }
docker info >/dev/null 2>&1 || { log 'no Docker engine answers (docker info failed)'; exit 1; }

ORDERS="http://127.0.0.1:${ORDERS_HOST_PORT:-3000}"
INVENTORY="http://127.0.0.1:${INVENTORY_HOST_PORT:-3001}"
DEADLINE_S="${COMPOSE_SMOKE_TIMEOUT_S:-120}"

log 'docker compose up --build --wait (builds the image, runs the one-shot migrations, waits for healthy services)'
docker compose up --build --detach --wait --wait-timeout 300 || fail 'the stack did not become healthy'

for service in orders-migrate inventory-migrate loyalty-migrate; do
  code="$(docker compose ps --all --format '{{.ExitCode}}' "$service")"
  [[ "$code" == "0" ]] || fail "$service exited with ${code:-?}"
done
log 'migrations ran once and exited 0'

sku="SMOKE-$(date +%s)"
curl -fsS -X PUT "$INVENTORY/stock/$sku" -H 'content-type: application/json' -d '{"available":5}' >/dev/null || fail "could not set stock of $sku"
# Orders prices lines from its own price list (issue 16): the SKU needs a price there too.
docker compose exec -T postgres psql -q -U postgres -d orders -v ON_ERROR_STOP=1 \
  -c "INSERT INTO products (sku, unit_price_cents) VALUES ('$sku', 500)" >/dev/null || fail "could not price $sku"

key="compose-smoke-$(date +%s)-$RANDOM"
order="$(curl -fsS -X POST "$ORDERS/orders" -H 'content-type: application/json' -H "Idempotency-Key: $key" \
  -d "{\"customerId\":\"compose-smoke\",\"items\":[{\"sku\":\"$sku\",\"quantity\":2}]}")" || fail 'POST /orders failed'
id="$(printf '%s' "$order" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')"
[[ -n "$id" ]] || fail "no order id in $order"
log "order $id placed (PENDING); waiting up to ${DEADLINE_S}s for RESERVED"

status=''
for _ in $(seq 1 "$DEADLINE_S"); do
  status="$(curl -fsS "$ORDERS/orders/$id" | sed -n 's/.*"status":"\([A-Z]*\)".*/\1/p')"
  [[ "$status" == 'RESERVED' ]] && break
  [[ "$status" == 'REJECTED' || "$status" == 'CANCELLED' ]] && fail "order $id ended $status"
  sleep 1
done
[[ "$status" == 'RESERVED' ]] || fail "order $id is still ${status:-unknown} after ${DEADLINE_S}s"
log "order $id is RESERVED"

if [[ "${COMPOSE_SMOKE_DOWN:-0}" == "1" ]]; then docker compose down; fi
log 'passed'
