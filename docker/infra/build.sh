#!/usr/bin/env bash
# Builds the infrastructure images the stack and the tests use, from Debian's packages and the Go
# module proxy, on the local base (docker/base/make-base.sh, run first when it is missing):
#   medfolio/postgres:15   medfolio/nats:2.9   medfolio/versitygw:1.8.0   medfolio/redis:7
#   medfolio/stripe-mock:v0.203.0, also tagged stripe/stripe-mock:v0.203.0 (the tests' Testcontainers name)
# Usage: docker/infra/build.sh          (npm run images:infra)
# versitygw is built with `go install` (pinned as in libs/tooling/tools.d/s3.sh) into
# $MEDFOLIO_TOOLS_DIR/bin when it is not there yet: about 3 minutes the first time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/docker/infra"
# shellcheck source=docker/lib.sh
source "$root/docker/lib.sh"
ensure_docker
$DOCKER image inspect medfolio/debian:bookworm >/dev/null 2>&1 || "$root/docker/base/make-base.sh"

gobin="${MEDFOLIO_TOOLS_DIR:-$HOME/.cache/medfolio/tools}/bin"
go_install() { # go_install NAME MODULE@VERSION, into $gobin once per version (as libs/tooling/install-tools.sh)
  if [[ ! -x "$gobin/$1" || "$(cat "$gobin/.$1.version" 2>/dev/null)" != "$2" ]]; then
    mkdir -p "$gobin"
    echo "infra: go install $2" >&2
    GOBIN="$gobin" CGO_ENABLED=0 "${GO:-go}" install "$2"
    echo "$2" >"$gobin/.$1.version"
  fi
}
go_install versitygw github.com/versity/versitygw/cmd/versitygw@v1.8.0
stripe_mock_version="$(sed -n "s/^export const STRIPE_MOCK_VERSION = '\(.*\)';/\1/p" "$root/libs/testing/src/stripe-mock.ts")"
go_install stripe-mock "github.com/stripe/stripe-mock@${stripe_mock_version:-v0.203.0}"

build() { # build IMAGE DOCKERFILE [FILE...]: the files are copied into a context of their own
  local image="$1" dockerfile="$2" ctx start
  shift 2
  start=$(date +%s)
  ctx="$(mktemp -d -t medfolio-infra.XXXXXX)"
  cp "$here/$dockerfile" "$ctx/Dockerfile"
  for f in "$@"; do cp "$f" "$ctx/"; done
  $DOCKER build -q --network host -t "$image" "$ctx" >/dev/null
  rm -rf "$ctx"
  echo "ok   $image: $(image_mb "$image") MB ($(( $(date +%s) - start )) s)"
}
build medfolio/postgres:15 postgres.Dockerfile "$here/postgres-entrypoint.sh"
build medfolio/nats:2.9 nats.Dockerfile
build medfolio/versitygw:1.8.0 s3.Dockerfile "$gobin/versitygw"
build medfolio/redis:7 redis.Dockerfile
build "medfolio/stripe-mock:${stripe_mock_version}" stripe-mock.Dockerfile "$gobin/stripe-mock"
$DOCKER tag "medfolio/stripe-mock:${stripe_mock_version}" "stripe/stripe-mock:${stripe_mock_version}"
