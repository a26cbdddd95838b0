# Shared by the scripts in docker/ and docker/base/ (sourced, not run).
#
# DOCKER: the Docker client. Debian's docker.io (20.10) builds with BuildKit built in; a newer client
# without the buildx plugin cannot (it falls back to the legacy builder, which lacks RUN --mount), so
# /usr/bin/docker is preferred when it is Debian's.
if [[ -z "${DOCKER:-}" ]]; then
  if [[ -x /usr/bin/docker ]]; then DOCKER=/usr/bin/docker; else DOCKER=docker; fi
fi
export DOCKER DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-1}"

# ensure_docker: starts dockerd (as root, in the background) when no engine answers.
ensure_docker() {
  if $DOCKER info >/dev/null 2>&1; then return 0; fi
  if [[ "$(id -u)" != 0 ]] || ! command -v dockerd >/dev/null 2>&1; then
    echo "docker: no engine answers; install Debian's docker.io and start dockerd as root" >&2
    return 1
  fi
  echo "docker: starting dockerd (log: ${DOCKERD_LOG:-/tmp/dockerd.log})" >&2
  nohup dockerd >"${DOCKERD_LOG:-/tmp/dockerd.log}" 2>&1 &
  for _ in $(seq 1 60); do
    if $DOCKER info >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "docker: dockerd did not answer within 30 s; see ${DOCKERD_LOG:-/tmp/dockerd.log}" >&2
  return 1
}

# image_mb IMAGE: its size as `docker image inspect` reports it, in MB (10^6 bytes).
image_mb() { echo $(( $($DOCKER image inspect -f '{{.Size}}' "$1") / 1000000 )); }
