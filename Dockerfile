# One image for every Node service of the platform; the compose file picks the entry point.
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libxml2-utils xsltproc && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps ./apps
COPY packages ./packages
COPY workflows ./workflows
COPY activities ./activities
COPY catalogs ./catalogs
COPY cli ./cli
RUN npm ci --no-audit --no-fund && npm run build --workspace @cfdi/console
ENV NODE_ENV=production
CMD ["npx", "tsx", "apps/api/src/server.ts"]
