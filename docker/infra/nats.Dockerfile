# NATS server from Debian's package on the local base (docker/infra/build.sh). Arguments are the
# server's own, e.g. `-js -sd /data -p 4222 -m 8222` (JetStream on, stored in /data, monitoring port).
ARG BASE_IMAGE=medfolio/debian:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends nats-server \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && mkdir -p /data && chown 10002:10002 /data
USER 10002:10002
EXPOSE 4222 8222
ENTRYPOINT ["/usr/sbin/nats-server"]
CMD ["-js", "-sd", "/data"]
