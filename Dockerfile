# syntax=docker/dockerfile:1.7
# One image for every Node service of the platform (API, worker, sandbox PAC, console, portal, `cfdi`); docker-compose.yml
# picks the entry point. The SAT XSD/XSLT and catalogs come from a build context of their own, never from the
# repository:
#
#   docker build --build-context sat=../shared/sat -t cfdi-platform .
#
# Node is pinned to the version CI tests on (NODE_24_VERSION in packages/devstack/src/node-runtime.ts).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Build stage: every dependency, then `turbo run build` (esbuild bundles in dist/, the prebuilt workflow bundle,
# the console's and the portal's .next), then the dev dependencies pruned away.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY scripts/bundle.mjs scripts/ascii-source.cjs ./scripts/
COPY apps ./apps
COPY packages ./packages
COPY workflows ./workflows
COPY activities ./activities
COPY catalogs ./catalogs
COPY cli ./cli
# The guides the API serves at /docs: its build copies them into apps/api/dist.
COPY docs ./docs
RUN npm ci --no-audit --no-fund && npx turbo run build && npm prune --omit=dev --no-audit --no-fund \
  # Temporal's native core ships for five platforms (~28 MB each); keep this one's.
  && find node_modules/@temporalio/core-bridge/releases -mindepth 1 -maxdepth 1 ! -name "$(uname -m)-unknown-linux-gnu" -exec rm -rf {} +

# Runtime stage: compiled output and production dependencies only, as the unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
# tini reaps zombies and forwards SIGTERM, so the API and worker shut down cleanly; xmllint/xsltproc are what
# `cfdi doctor` and the sandbox PAC's optional XSD check call.
RUN apt-get update && apt-get install -y --no-install-recommends tini libxml2-utils xsltproc \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data/storage && chown -R node:node /data
ENV NODE_ENV=production SAT_DIR=/app/sat STORAGE_DIR=/data/storage
# V8's young generation at 8 MB semi-spaces rather than the 64 MB Node 24 picks on a large host (190 MB less RSS for
# the API under load), and two glibc malloc arenas rather than one per thread (~10 MB less for the API, ~30 MB for
# the worker), at no measurable CPU (PRODUCTION_ENV in packages/devstack/src/node-runtime.ts).
ENV NODE_OPTIONS="--max-semi-space-size=8"
ENV MALLOC_ARENA_MAX="2"
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/apps/api/package.json ./apps/api/
COPY --from=build /app/apps/api/node_modules ./apps/api/node_modules
COPY --from=build /app/apps/api/dist ./apps/api/dist
COPY --from=build /app/apps/worker/package.json ./apps/worker/
COPY --from=build /app/apps/worker/dist ./apps/worker/dist
COPY --from=build /app/apps/pac-sandbox/package.json ./apps/pac-sandbox/
COPY --from=build /app/apps/pac-sandbox/dist ./apps/pac-sandbox/dist
COPY --from=build /app/packages/next-app ./packages/next-app
COPY --from=build /app/apps/console/package.json /app/apps/console/next.config.js /app/apps/console/server.js ./apps/console/
COPY --from=build /app/apps/console/.next ./apps/console/.next
COPY --from=build /app/apps/portal/package.json /app/apps/portal/next.config.js /app/apps/portal/server.js ./apps/portal/
COPY --from=build /app/apps/portal/.next ./apps/portal/.next
COPY --from=build /app/cli/package.json ./cli/
COPY --from=build /app/cli/dist ./cli/dist
COPY --from=sat xml ./sat/xml
COPY --from=sat catalogs ./sat/catalogs
RUN ln -s /app/cli/dist/cfdi.js /usr/local/bin/cfdi
USER node
# The API's liveness by default; the sandbox PAC sets HEALTHCHECK_URL, the worker and `migrate` disable it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch(process.env.HEALTHCHECK_URL || 'http://127.0.0.1:' + (process.env.API_PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
EXPOSE 3000
CMD ["node", "apps/api/dist/server.js"]
