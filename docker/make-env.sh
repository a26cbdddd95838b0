#!/bin/sh
# Writes docker/.env, the secrets docker/compose.yaml reads, with fresh random values:
#
#   sh docker/make-env.sh
#
# Never overwrites an existing docker/.env (the data in the volumes is sealed with these keys).
# Each key is 32 random bytes in base64 (openssl rand -base64 32); the database password is hex,
# since it goes into a URL. To rotate one later, see deploy/README.md, step 7.
set -eu
file="$(dirname "$0")/.env"
if [ -e "$file" ]; then
  echo "make-env: $file exists; remove it first to make new secrets (the stack's data needs the old ones)" >&2
  exit 1
fi
key() { openssl rand -base64 32; }
umask 077
{
  echo "POSTGRES_PASSWORD=$(openssl rand -hex 24)"
  echo "S3_SECRET_ACCESS_KEY=$(key)"
  echo "INTERNAL_API_TOKEN=$(key)"
  echo "STORAGE_URL_SIGNING_KEY=$(key)"
  echo "IDENTITY_SECRET=$(key)"
  echo "NOTIFICATIONS_ENCRYPTION_KEY=$(key)"
  echo "SHARE_LINK_KEY=$(key)"
  echo "CONNECTIONS_TOKEN_KEY=$(key)"
} >"$file"
echo "make-env: wrote $file (owner-only); now: docker compose -f docker/compose.yaml up --build"
