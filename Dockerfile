# syntax=docker/dockerfile:1
# Folio's container image (issue 29, docs/decisions/0048): built with Bun from the lockfile, run
# as the README runs it. `docker build -t folio .` from the repository's root;
# docs/deploy/compose.yaml runs two of it on PostgreSQL behind HAProxy and Varnish.
#
# Environment (README "Environment" has all of them; env.ts checks them at start):
#   DATABASE_URL   postgres://user:password@host:5432/folio (or sqlite:/app/data/folio.db, one
#                  instance only, with a volume at /app/data)
#   SITE_URL       the public origin, https://example.com
#   TRUST_PROXY    the number of proxies in front (2 behind Varnish and HAProxy)
#   PURGE_URL      the shared cache to purge on publish, http://varnish:6081/
#   SENTRY_DSN, WAKU_PUBLIC_SENTRY_DSN: error reporting (unset: off)
# PORT is 3000 here and HOST unset: a container's own interface, reachable only on the
# networks it is put on (keep the instances on a network only the proxies share).

ARG BUN_VERSION=1.4.4

# 1. Every dependency, then the production build (dist/).
FROM oven/bun:${BUN_VERSION} AS build
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build

# 2. The dependencies the server and the CLI use at run time, without the test tools
# (Playwright, Lighthouse, Biome, TypeScript).
FROM oven/bun:${BUN_VERSION} AS runtime-dependencies
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production

# 3. What `bun run start` and `bun run folio` need: the build, the production dependencies,
# the start script, and the sources the CLI runs from.
FROM oven/bun:${BUN_VERSION}-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000
COPY --from=runtime-dependencies /app/node_modules ./node_modules
COPY package.json bun.lock tsconfig.json bunfig.toml ./
# bunfig.toml preloads scripts/preload.ts into every Bun process (the CLI needs it).
COPY scripts/start.ts scripts/preload.ts ./scripts/
COPY src ./src
COPY --from=build /app/dist ./dist
# Newer than every source, so `bun run start` never rebuilds in the container (it builds when
# the build is older than its inputs, and the build tools are not here).
RUN touch dist/server/serve.js \
    && mkdir -p /app/data \
    && chown bun:bun /app/data
# A SQLite database, if one is used, lives here (mount a volume); PostgreSQL needs none.
VOLUME ["/app/data"]
# The image's own user (uid 1000), not root.
USER bun
EXPOSE 3000
# 200 while the instance reaches its database and has heard every publish (README "Deploy").
# Bun fetches it: the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["bun", "-e", "const r = await fetch(`http://127.0.0.1:${process.env.PORT}/healthz`); process.exit(r.status === 200 ? 0 : 1)"]
# The start script itself (what `bun run start` runs), so the server is PID 1 and gets the
# SIGTERM of `docker stop` directly: it stops accepting, finishes in-flight requests, exits.
STOPSIGNAL SIGTERM
CMD ["bun", "scripts/start.ts"]
