# One image recipe for every service; the APP build argument picks which one.
#   docker build --build-arg APP=orders -t outbox/orders .
# The container serves only: migrations run once per deployment, before any replica, from the same
# image (`node dist/apps/$APP/src/migrate.js`; the *-migrate services in docker-compose.yml), and
# so do the Kafka ACLs (`node dist/scripts/kafka-acls.js`; compose's kafka-setup, the kafka-acls Job).

ARG NODE_IMAGE=node:24-slim

# --- build: all dependencies, compile apps/ and libs/ to dist/ ---------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first: this layer, the slowest one, is reused until the lockfile changes.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY libs ./libs
COPY apps ./apps
# The ACLs are declared once, in the local tooling (tools/local-stack/src/kafka/kafka-principals.ts),
# derived from the service catalog: scripts/kafka-acls.ts needs it and, through the catalog, every
# app's public entry. No app or library imports tools/ (test/foundation/architecture.spec.ts).
# Tests (test/) are not copied.
COPY tools ./tools
RUN node scripts/build.mjs

# --- production dependencies only: no compiler, test runner or type packages at run time -------
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# --- dev-issuer: the development token issuer for docker compose, never for production --------
# Anyone who can read its state file can mint any token. Before `runtime`, so a plain
# `docker build` still builds an app.
FROM ${NODE_IMAGE} AS dev-issuer
ENV NODE_OPTIONS="--enable-source-maps"
WORKDIR /app
COPY package.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist/libs ./dist/libs
COPY --from=build /app/dist/apps ./dist/apps
COPY --from=build /app/dist/tools/local-stack ./dist/tools/local-stack
COPY --from=build /app/dist/scripts/dev-issuer.js /app/dist/scripts/dev-issuer.js.map ./dist/scripts/
# The state directory the compose volume mounts over: a new named volume takes its owner.
RUN mkdir /state && chown node /state
USER node
CMD ["node", "dist/scripts/dev-issuer.js"]

# --- runtime -----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG APP
# Fail the build, not the first start, when APP is missing or names no app.
RUN test -n "${APP}" || { echo 'build with --build-arg APP=orders|inventory|loyalty' >&2; exit 1; }
# --enable-source-maps: the build writes .map files beside the .js; with this flag stack traces
# name the TypeScript file and line instead of the compiled one. The heap sizes: see
# tools/local-stack/src/processes/app-node-flags.ts (peak RSS under load, measured). One malloc
# arena for all threads: tools/local-stack/src/processes/app-process-env.ts (measured too).
ENV NODE_ENV=production \
    NODE_OPTIONS="--enable-source-maps --max-semi-space-size=2 --max-old-space-size=128" \
    MALLOC_ARENA_MAX=1 \
    APP=${APP}
WORKDIR /app
# Owned by root and read-only for the `node` user that runs the app: a compromised process cannot
# rewrite its own code or dependencies.
COPY package.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist/libs ./dist/libs
# Every app, not only ${APP}: the ACL program reads the other apps' consumes declarations too.
COPY --from=build /app/dist/apps ./dist/apps
COPY --from=build /app/dist/tools/local-stack ./dist/tools/local-stack
COPY --from=build /app/dist/scripts/kafka-acls.js /app/dist/scripts/kafka-acls.js.map /app/dist/scripts/kafka-acls.env.js ./dist/scripts/
RUN test -f "dist/apps/${APP}/src/main.js" && test -f "dist/apps/${APP}/src/migrate.js" && test -f "dist/apps/${APP}/src/main.js.map" \
    && test -f dist/scripts/kafka-acls.js
USER node
# `exec` makes the server PID 1's replacement, so `docker stop` (SIGTERM) reaches Node directly and
# Nest's shutdown hooks drain consumers and close pools.
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
