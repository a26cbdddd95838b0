#!/usr/bin/env bash
# The integration tests' Testcontainers path (libs/testing/src/testcontainers.global-setup.ts) on the
# locally built images, for machines without Docker Hub: PostgreSQL, NATS and Redis (and stripe-mock
# for billing) each start in a container of their own for the run, and are removed after it.
# Usage: docker/testcontainers.sh [PROJECT...]    (npm run test:int:containers -- audit identity)
# Default project: audit. Builds the images first when missing (docker/infra/build.sh).
# DATABASE_URL, NATS_URL and REDIS_URL are unset for the run (a URL given wins over Testcontainers).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=docker/lib.sh
source "$root/docker/lib.sh"
ensure_docker
for image in medfolio/postgres:15 medfolio/nats:2.9 medfolio/redis:7 stripe/stripe-mock:v0.203.0; do
  $DOCKER image inspect "$image" >/dev/null 2>&1 || { "$root/docker/infra/build.sh"; break; }
done
[[ $# -gt 0 ]] || set -- audit
unset DATABASE_URL NATS_URL REDIS_URL
export TESTCONTAINERS_POSTGRES_IMAGE=medfolio/postgres:15 \
  TESTCONTAINERS_NATS_IMAGE=medfolio/nats:2.9 \
  TESTCONTAINERS_REDIS_IMAGE=medfolio/redis:7 \
  TESTCONTAINERS_RYUK_DISABLED=true
# Testcontainers finds the engine by DOCKER_HOST, else /var/run/docker.sock.
cd "$root"
exec node libs/tooling/scripts/jest.mjs int "$@"
