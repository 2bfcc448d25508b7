# syntax=docker/dockerfile:1
# Plumbline production image (docs/production.md): TypeScript compiled to JavaScript in a build
# stage, production dependencies only, a non-root user, `node dist/src/main.js` — no tsx at run time.
ARG NODE_IMAGE=node:20.19-bookworm-slim

# 1. Build: every dependency, the SDK bundle and tsc → dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY projections ./projections
COPY scripts ./scripts
COPY static ./static
RUN npm run build

# 2. Production dependencies only (better-sqlite3 is native: built here, on the runtime's base).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. Runtime: the built output and production node_modules, as the unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
# Writable only where the service writes: its data dir and the operator-key mount point.
RUN mkdir -p /data /run/plumbline && chown node:node /data /run/plumbline
USER node
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/main.js"]
