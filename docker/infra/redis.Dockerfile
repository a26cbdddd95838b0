# Redis from Debian's package on the local base (docker/infra/build.sh): the gateway's shared rate
# limits, and the integration tests' Testcontainers path. Nothing kept on disk.
ARG BASE_IMAGE=medfolio/debian:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
USER redis
EXPOSE 6379
ENTRYPOINT ["/usr/bin/redis-server"]
CMD ["--bind", "0.0.0.0", "--protected-mode", "no", "--save", "", "--appendonly", "no"]
