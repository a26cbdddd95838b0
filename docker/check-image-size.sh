#!/usr/bin/env bash
# Builds the image of each application given (default: gateway audit) and checks that it stays
# within the size budget: 250 MB uncompressed, the SIZE column of `docker image ls`.
# Usage: docker/check-image-size.sh [APP...]    (from anywhere; needs a Docker engine)
# Environment: TAG (default: size-check), LIMIT_MB (default: 250).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tag="${TAG:-size-check}"
limit_mb="${LIMIT_MB:-250}"
apps=("$@")
[[ ${#apps[@]} -gt 0 ]] || apps=(gateway audit)
status=0
for app in "${apps[@]}"; do
  image="medfolio/${app}:${tag}"
  docker build -q -f "$root/docker/Dockerfile" --build-arg "APP=${app}" -t "$image" "$root" >/dev/null
  bytes="$(docker image inspect -f '{{.Size}}' "$image")"
  mb=$((bytes / 1000 / 1000))
  if ((mb > limit_mb)); then
    echo "FAIL ${image}: ${mb} MB > ${limit_mb} MB" >&2
    status=1
  else
    echo "ok   ${image}: ${mb} MB (budget ${limit_mb} MB)"
  fi
done
exit "$status"
