# The service in a container (README, "Docker"):
#   docker build -t openness .
#   docker run -d --name openness -p 8080:8080 -p 8443:8443 -p 127.0.0.1:8090:8090 -v openness-data:/data openness
# Two stages: the build (npm ci, npm run build) and a runtime with only what the bundle needs at run time
# (scripts/runtime-files.mjs: the bundle, its external packages, the demo directory, the scenarios).

FROM node:20-slim AS build
WORKDIR /src
# better-sqlite3 is native: npm ci downloads its prebuilt binary, or compiles it when none matches.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages/wire/package.json packages/wire/
COPY packages/server/package.json packages/server/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/ packages/
COPY scripts/ scripts/
COPY scenarios/ scenarios/
RUN npm run build && node scripts/runtime-files.mjs /runtime

FROM node:20-slim
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  DATA_DIR=/data \
  CONTROL_HOST=0.0.0.0 \
  LOG_FORMAT=json
WORKDIR /app
COPY --from=build /runtime/ /app/
# The data directory (SQLite database, development certificate) belongs to the unprivileged user "node".
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# API over HTTP, API over HTTPS, control plane (token required: CONTROL_TOKEN, or the one printed at start).
EXPOSE 8080 8443 8090
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/healthcheck.mjs"]
CMD ["node", "packages/server/dist/main.bundle.js"]
