# Shared by the scripts in docker/ and docker/base/ (sourced, not run).
#
# DOCKER: the Docker client. Debian's docker.io (20.10) builds with BuildKit built in; a newer client
# without the buildx plugin cannot (it falls back to the legacy builder, which lacks RUN --mount), so
# /usr/bin/docker is preferred when it is Debian's.
if [[ -z "${DOCKER:-}" ]]; then
  if [[ -x /usr/bin/docker ]]; then DOCKER=/usr/bin/docker; else DOCKER=docker; fi
fi
export DOCKER DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-1}"

# ensure_docker: finds an engine (DOCKER_HOST, the default socket, then this repository's own socket)
# or starts dockerd (as root, in the background) on its own socket, /var/run/medfolio-docker.sock, and
# exports DOCKER_HOST for the rest of the script. Its own socket, not /var/run/docker.sock: where the
# tests find a default socket they start their services with Testcontainers instead of using the
# machine's (libs/testing/src/service-urls.ts), and an engine started for the images must not change
# that for every other test run on the machine.
MEDFOLIO_DOCKER_SOCKET="${MEDFOLIO_DOCKER_SOCKET:-unix:///var/run/medfolio-docker.sock}"
ensure_docker() {
  if $DOCKER info >/dev/null 2>&1; then return 0; fi
  if [[ -z "${DOCKER_HOST:-}" ]] && DOCKER_HOST="$MEDFOLIO_DOCKER_SOCKET" $DOCKER info >/dev/null 2>&1; then
    export DOCKER_HOST="$MEDFOLIO_DOCKER_SOCKET"
    return 0
  fi
  if [[ "$(id -u)" != 0 ]] || ! command -v dockerd >/dev/null 2>&1; then
    echo "docker: no engine answers; install Debian's docker.io and start dockerd as root" >&2
    return 1
  fi
  local log="${DOCKERD_LOG:-/tmp/dockerd.log}"
  echo "docker: starting dockerd on $MEDFOLIO_DOCKER_SOCKET (log: $log)" >&2
  nohup dockerd -H "$MEDFOLIO_DOCKER_SOCKET" >"$log" 2>&1 &
  export DOCKER_HOST="$MEDFOLIO_DOCKER_SOCKET"
  for _ in $(seq 1 60); do
    if $DOCKER info >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "docker: dockerd did not answer within 30 s; see $log" >&2
  return 1
}

# image_mb IMAGE: its size as `docker image inspect` reports it, in MB (10^6 bytes).
image_mb() { echo $(( $($DOCKER image inspect -f '{{.Size}}' "$1") / 1000000 )); }
