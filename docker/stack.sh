#!/usr/bin/env bash
# The multi-process stack from the locally built images, on this machine's host network (no Compose
# needed: Debian's docker.io has no `docker compose` plugin, only the older docker-compose package):
# PostgreSQL, NATS with JetStream and versitygw, each application's migrations, then the nine
# applications, each as in Kubernetes: non-root, read-only root filesystem, /tmp in memory, no
# capabilities, restarted when it dies.
#
#   docker/stack.sh up       (npm run stack:up)    build missing images, start, wait until all are ready
#   docker/stack.sh test     (npm run stack:test)  starts it afresh (down, then up with the test settings,
#                            STACK_PROFILE=test), then the system journeys and the kill-under-load check
#   docker/stack.sh status   containers and their readiness
#   docker/stack.sh logs APP the last lines of one container's log
#   docker/stack.sh down     (npm run stack:down)  stop and remove the containers and their volumes
#
# Ports (STACK_PORT_BASE, default 27000: below the kernel's ephemeral range, 32768 and up, where an
# outgoing connection can hold a port a server wants), all on 127.0.0.1: gateway +0 (web app and /api), audit +1, identity +2,
# documents +3, summary +4, notifications +5, wallet +6, billing +7, connections +8; the tests' SMTP sink +25 and
# fake NPI registry +26; PostgreSQL +432, NATS +422 (monitoring +822), S3 +70.
# State: STACK_DIR (default /tmp/medfolio-stack): secrets (stack.env, mode 0600, made once), identity's
# and wallet's key directories, the S3 bucket's directory. Images: TAG (default dev).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=docker/lib.sh
source "$root/docker/lib.sh"
tag="${TAG:-dev}"
base_port="${STACK_PORT_BASE:-27000}"
dir="${STACK_DIR:-/tmp/medfolio-stack}"
apps=(audit identity documents summary notifications wallet billing connections gateway)
declare -A port=(
  [gateway]=$((base_port)) [audit]=$((base_port + 1)) [identity]=$((base_port + 2)) [documents]=$((base_port + 3))
  [summary]=$((base_port + 4)) [notifications]=$((base_port + 5)) [wallet]=$((base_port + 6)) [billing]=$((base_port + 7))
  [connections]=$((base_port + 8))
)
smtp_port=$((base_port + 25)) nppes_port=$((base_port + 26))
pg_port=$((base_port + 432)) nats_port=$((base_port + 422)) nats_monitor=$((base_port + 822)) s3_port=$((base_port + 70))
prefix=medfolio-stack

now_ms() { date +%s%3N; }

wait_http() { # wait_http WHAT URL TIMEOUT_S
  local deadline=$(( $(date +%s) + $3 ))
  until curl -fsS -o /dev/null --max-time 2 "$2" 2>/dev/null; do
    if (( $(date +%s) > deadline )); then echo "stack: $1 not ready after $3 s ($2)" >&2; return 1; fi
    sleep 0.5
  done
}

secrets() {
  mkdir -p "$dir"
  if [[ ! -f "$dir/stack.env" ]]; then
    umask 077
    cat >"$dir/stack.env" <<SECRETS
POSTGRES_PASSWORD=$(openssl rand -hex 24)
S3_ACCESS_KEY_ID=medfolio-stack
S3_SECRET_ACCESS_KEY=$(openssl rand -base64 32)
INTERNAL_API_TOKEN=$(openssl rand -base64 32)
STORAGE_URL_SIGNING_KEY=$(openssl rand -base64 48)
IDENTITY_SECRET=$(openssl rand -base64 32)
NOTIFICATIONS_ENCRYPTION_KEY=$(openssl rand -base64 32)
SHARE_LINK_KEY=$(openssl rand -base64 32)
CONNECTIONS_TOKEN_KEY=$(openssl rand -base64 32)
SECRETS
  fi
  # A stack.env made before connections joined: add its key (the other secrets stay).
  if ! grep -q '^CONNECTIONS_TOKEN_KEY=' "$dir/stack.env"; then
    echo "CONNECTIONS_TOKEN_KEY=$(openssl rand -base64 32)" >>"$dir/stack.env"
  fi
  # shellcheck source=/dev/null
  source "$dir/stack.env"
}

# env_file APP: the application's settings, as compose.yaml and the chart give them.
env_file() {
  local app="$1" file="$dir/$1.env"
  umask 077
  {
    echo "MEDFOLIO_MODE=service"
    echo "HOST=127.0.0.1"
    echo "PORT=${port[$app]}"
    echo "LOG_LEVEL=${LOG_LEVEL:-info}"
    echo "PUBLIC_BASE_URL=http://127.0.0.1:${port[gateway]}"
    echo "DATABASE_URL=postgres://medfolio:${POSTGRES_PASSWORD}@127.0.0.1:${pg_port}/medfolio"
    echo "NATS_URL=nats://127.0.0.1:${nats_port}"
    echo "NATS_STREAM_REPLICAS=1"
    echo "S3_ENDPOINT=http://127.0.0.1:${s3_port}"
    echo "S3_REGION=us-east-1"
    echo "S3_BUCKET=medfolio"
    echo "S3_FORCE_PATH_STYLE=true"
    echo "S3_ACCESS_KEY_ID=${S3_ACCESS_KEY_ID}"
    echo "S3_SECRET_ACCESS_KEY=${S3_SECRET_ACCESS_KEY}"
    echo "STORAGE_URL_SIGNING_KEY=${STORAGE_URL_SIGNING_KEY}"
    case "$app" in
      gateway | documents) echo "NODE_OPTIONS=--max-semi-space-size=1" ;;
      *) echo "NODE_OPTIONS=--max-semi-space-size=16" ;;
    esac
    # STACK_PROFILE=test: the settings the system journeys expect (as apps/system-e2e runs the product).
    if [[ "${STACK_PROFILE:-}" == test ]]; then
      case "$app" in
        gateway) echo "RATE_LIMIT_PER_MINUTE=1000000" ;;
        identity) printf 'REFRESH_REUSE_GRACE_SECONDS=0\nNPI_REGISTRY_URL=http://127.0.0.1:%s/api/?version=2.1\n' "$nppes_port" ;;
        documents) echo "DOCUMENT_QUOTA_FREE=5" ;;
        summary) echo "SUMMARY_REBUILD_DELAY_MS=500" ;;
      esac
    fi
    case "$app" in
      identity)
        echo "INTERNAL_API_TOKEN=${INTERNAL_API_TOKEN}"
        echo "IDENTITY_SECRET=${IDENTITY_SECRET}"
        echo "DATA_DIR=/data"
        ;;
      documents) echo "INTERNAL_API_TOKEN=${INTERNAL_API_TOKEN}" ;;
      summary)
        echo "INTERNAL_API_TOKEN=${INTERNAL_API_TOKEN}"
        echo "SHARE_LINK_KEY=${SHARE_LINK_KEY}"
        echo "DOCUMENTS_INTERNAL_URL=http://127.0.0.1:${port[documents]}"
        ;;
      notifications)
        echo "NOTIFICATIONS_ENCRYPTION_KEY=${NOTIFICATIONS_ENCRYPTION_KEY}"
        echo "SMTP_URL=smtp://127.0.0.1:${smtp_port}"
        echo "MAIL_FROM=Medfolio <no-reply@medfolio.local>"
        echo "SUPPORT_EMAIL=support@medfolio.local"
        ;;
      wallet)
        echo "INTERNAL_API_TOKEN=${INTERNAL_API_TOKEN}"
        echo "DATA_DIR=/data"
        ;;
      connections)
        # The sample directory of public sandboxes; set FHIR_ENDPOINTS_FILE (mounted) for others.
        echo "INTERNAL_API_TOKEN=${INTERNAL_API_TOKEN}"
        echo "CONNECTIONS_TOKEN_KEY=${CONNECTIONS_TOKEN_KEY}"
        echo "DOCUMENTS_INTERNAL_URL=http://127.0.0.1:${port[documents]}"
        ;;
      gateway)
        echo "INTERNAL_API_TOKEN=${INTERNAL_API_TOKEN}"
        echo "JWT_JWKS_URL=http://127.0.0.1:${port[identity]}/.well-known/jwks.json"
        echo "IDENTITY_INTERNAL_URL=http://127.0.0.1:${port[identity]}"
        echo "DOCUMENTS_INTERNAL_URL=http://127.0.0.1:${port[documents]}"
        echo "WALLET_INTERNAL_URL=http://127.0.0.1:${port[wallet]}"
        echo "GATEWAY_SERVICES=audit,identity,documents,summary,notifications,wallet,billing,connections"
        ;;
    esac
  } >"$file"
  echo "$file"
}

# app_args APP: docker run options shared by the application and its migrations.
app_args() {
  local app="$1"
  local args=(--network host --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges:true
    --env-file "$(env_file "$app")")
  case "$app" in identity | wallet) args+=(-v "$dir/$app-data:/data") ;; esac
  printf '%s\n' "${args[@]}"
}

up() {
  ensure_docker
  local t0 missing=()
  t0=$(now_ms)
  for app in "${apps[@]}"; do $DOCKER image inspect "medfolio/$app:$tag" >/dev/null 2>&1 || missing+=("$app"); done
  ((${#missing[@]} == 0)) || TAG="$tag" "$root/docker/images.sh" "${missing[@]}"
  for image in medfolio/postgres:15 medfolio/nats:2.9 medfolio/versitygw:1.8.0; do
    $DOCKER image inspect "$image" >/dev/null 2>&1 || { "$root/docker/infra/build.sh"; break; }
  done
  secrets
  mkdir -p "$dir/s3/medfolio" "$dir/identity-data" "$dir/wallet-data"
  chown -R 10003:10003 "$dir/s3"
  chown 10001:10001 "$dir/identity-data" "$dir/wallet-data"
  t0=$(now_ms)

  run() { # run NAME IMAGE [OPTIONS...] -- [ARGS...]
    local name="$1" image="$2"
    shift 2
    local opts=() args=()
    while (($#)) && [[ "$1" != -- ]]; do opts+=("$1"); shift; done
    (($#)) && shift
    args=("$@")
    $DOCKER rm -f "$prefix-$name" >/dev/null 2>&1 || true
    $DOCKER run -d --name "$prefix-$name" --label medfolio-stack=1 --restart unless-stopped "${opts[@]}" "$image" "${args[@]}" >/dev/null
  }
  run postgres medfolio/postgres:15 --network host -v "$prefix-postgres:/var/lib/postgresql/data" \
    -e PGPORT="$pg_port" -e POSTGRES_USER=medfolio -e POSTGRES_PASSWORD="$POSTGRES_PASSWORD" -e POSTGRES_DB=medfolio \
    -- -c listen_addresses=127.0.0.1
  run nats medfolio/nats:2.9 --network host -v "$prefix-nats:/data" -- -js -sd /data -a 127.0.0.1 -p "$nats_port" -m "$nats_monitor"
  run s3 medfolio/versitygw:1.8.0 --network host -v "$dir/s3:/data" \
    -e ROOT_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" -e ROOT_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" \
    -- --port "127.0.0.1:$s3_port" --health /health posix /data
  local deadline=$(( $(date +%s) + 60 ))
  until $DOCKER exec "$prefix-postgres" pg_isready -h 127.0.0.1 -p "$pg_port" -U medfolio >/dev/null 2>&1; do
    (( $(date +%s) < deadline )) || { echo "stack: PostgreSQL not ready after 60 s" >&2; $DOCKER logs --tail 20 "$prefix-postgres" >&2; return 1; }
    sleep 0.5
  done
  wait_http NATS "http://127.0.0.1:$nats_monitor/healthz?js-enabled-only=true" 60
  wait_http S3 "http://127.0.0.1:$s3_port/health" 60
  local t_infra=$(now_ms)

  # Migrations: one short-lived container per application with a database, in parallel.
  local pids=() app
  for app in audit identity documents summary notifications wallet billing connections; do
    mapfile -t opts < <(app_args "$app")
    $DOCKER run --rm --name "$prefix-$app-migrate" "${opts[@]}" "medfolio/$app:$tag" migrate >"$dir/$app-migrate.log" 2>&1 &
    pids+=("$!:$app")
  done
  for entry in "${pids[@]}"; do
    wait "${entry%%:*}" || { echo "stack: ${entry#*:} migrations failed:" >&2; tail -20 "$dir/${entry#*:}-migrate.log" >&2; return 1; }
  done
  local t_migrated=$(now_ms)

  for app in "${apps[@]}"; do
    mapfile -t opts < <(app_args "$app")
    run "$app" "medfolio/$app:$tag" "${opts[@]}"
  done
  for app in "${apps[@]}"; do
    local path=/health/ready
    [[ "$app" == gateway ]] && path=/api/health/
    wait_http "$app" "http://127.0.0.1:${port[$app]}$path" 120 || { $DOCKER logs --tail 30 "$prefix-$app" >&2; return 1; }
  done
  local t_ready=$(now_ms)
  echo "stack: up in $(( (t_ready - t0) / 1000 )).$(( (t_ready - t0) % 1000 / 100 )) s (infrastructure $(( t_infra - t0 )) ms, migrations $(( t_migrated - t_infra )) ms, applications ready $(( t_ready - t_migrated )) ms)"
  echo "stack: http://127.0.0.1:${port[gateway]} (web app and /api); state in $dir"
}

down() {
  ensure_docker
  local ids
  ids="$($DOCKER ps -aq --filter label=medfolio-stack=1)"
  [[ -z "$ids" ]] || $DOCKER rm -f $ids >/dev/null
  $DOCKER volume rm -f "$prefix-postgres" "$prefix-nats" >/dev/null 2>&1 || true
  rm -rf "$dir"
  echo "stack: down"
}

status() {
  $DOCKER ps -a --filter label=medfolio-stack=1 --format 'table {{.Names}}\t{{.Status}}\t{{.Image}}'
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) ensure_docker && status ;;
  logs) ensure_docker && $DOCKER logs --tail "${LINES:-50}" "$prefix-${2:?docker/stack.sh logs APP}" ;;
  test)
    # From empty databases: the journeys use the fake NPI registry's fixed license numbers, which a
    # previous run's accounts would already hold.
    down
    STACK_PROFILE=test up
    export STACK_PORT_BASE="$base_port" STACK_DIR="$dir" DOCKER
    cd "$root"
    NODE_OPTIONS=--experimental-vm-modules exec npx jest -c libs/tooling/containers/jest.stack.config.cjs "${@:2}"
    ;;
  *) echo "usage: docker/stack.sh up|test|status|logs APP|down" >&2; exit 2 ;;
esac
