####
# A stand-in for the official docker.io/library/postgres:15-bookworm image, for machines that reach Debian's packages
# but no image registry (deploy/docker/base-images.sh builds it under that name only when the registry does not
# answer). Built the same way as the official image: Debian bookworm's postgresql-15, user postgres with uid/gid 999,
# initialised on first start from POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB into PGDATA; PGPORT picks the port.
# What this project's manifests and compose.yaml use of the official image, and nothing more.
###
FROM docker.io/library/debian:bookworm-slim
RUN groupadd --system --gid 999 postgres \
    && useradd --system --gid postgres --uid 999 --home-dir /var/lib/postgresql --shell /bin/bash postgres \
    && mkdir -p /var/lib/postgresql && chown postgres:postgres /var/lib/postgresql \
    && apt-get update \
    && apt-get install -y --no-install-recommends postgresql-common \
    && sed -ri 's/#(create_main_cluster) .*$/\1 = false/' /etc/postgresql-common/createcluster.conf \
    && apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/run/postgresql && chown postgres:postgres /var/run/postgresql && chmod 3777 /var/run/postgresql
ENV PATH=$PATH:/usr/lib/postgresql/15/bin PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["docker-entrypoint.sh"]
EXPOSE 5432
STOPSIGNAL SIGINT
CMD ["postgres"]
