-- The tenants of a service and their secret keys, in the service's own words (quarkus.flyway.migrations.placeholders):
-- ${owner} (application, project) names the owner table and its key column, ${grants} (scopes, permissions) what a
-- key may do. A database whose V1 was the service's own file is taken over by TenancyUpgrade.
CREATE TABLE ${flyway:defaultSchema}.${owner}s (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE TABLE ${flyway:defaultSchema}.api_keys (
    id          text PRIMARY KEY,
    ${owner}_id text NOT NULL REFERENCES ${flyway:defaultSchema}.${owner}s (id),
    key_hash    text NOT NULL UNIQUE,
    key_hint    text NOT NULL,
    mode        text NOT NULL CHECK (mode IN ('test', 'live')),
    ${grants}   text[] NOT NULL,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX api_keys_${owner} ON ${flyway:defaultSchema}.api_keys (${owner}_id);

