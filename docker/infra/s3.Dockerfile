# versitygw, the S3 server the tests use (libs/tooling/tools.d/s3.sh), on the local base
# (docker/infra/build.sh puts the binary, built with `go install` from the Go module proxy, in the
# context). Serves each top-level directory of /data as a bucket: `posix /data`.
ARG BASE_IMAGE=medfolio/debian:bookworm
FROM ${BASE_IMAGE}
COPY versitygw /usr/local/bin/versitygw
RUN mkdir -p /data && chown 10003:10003 /data
USER 10003:10003
EXPOSE 7070
ENTRYPOINT ["/usr/local/bin/versitygw"]
CMD ["--health", "/health", "posix", "/data"]
