#!/bin/sh
# First start: initdb into $PGDATA, the superuser $POSTGRES_USER (default postgres) with
# $POSTGRES_PASSWORD (password auth over TCP; without one, trust, for tests only), and $POSTGRES_DB.
# Then runs postgres in the foreground on $PGPORT, on every address, with extra arguments passed on.
set -eu
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s\n' "${POSTGRES_PASSWORD:-}" >"$pwfile"
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then auth=scram-sha-256; else auth=trust; fi
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host="$auth" -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  printf "host all all 0.0.0.0/0 %s\nhost all all ::/0 %s\n" "$auth" "$auth" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /var/run/postgresql" -w start >/dev/null
  if [ "$db" != postgres ]; then
    psql -h /var/run/postgresql -U "$user" -d postgres -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"$db\"" >/dev/null
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "postgres-entrypoint: initialised $PGDATA (user $user, database $db)"
fi
exec postgres -D "$PGDATA" -p "$PGPORT" -c listen_addresses='*' -k /var/run/postgresql "$@"
