# PostgreSQL from Debian's packages on the local base (docker/infra/build.sh). Drop-in for the official
# image's conventions where the stack and Testcontainers rely on them: POSTGRES_USER, POSTGRES_PASSWORD,
# POSTGRES_DB on first start, data in /var/lib/postgresql/data, port 5432 (PGPORT changes it), pg_isready.
ARG BASE_IMAGE=medfolio/debian:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data PGPORT=5432
USER postgres
EXPOSE 5432
HEALTHCHECK --interval=5s --timeout=3s --retries=20 CMD ["sh", "-c", "pg_isready -h 127.0.0.1 -p \"$PGPORT\""]
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
