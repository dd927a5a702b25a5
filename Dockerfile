# One image for every service; the container command picks the app:
#   node dist/apps/<service>/main.cjs            (serve)
#   node dist/apps/<service>/main.cjs migrate    (apply that service's migrations and exit)
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npx nx run-many -t build --parallel=2 \
 && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# git: the control plane clones deployments' repositories; agent servers load their graphs with tsx (a dependency).
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/proto ./proto
COPY --from=build /app/examples ./examples
USER node
EXPOSE 8080
CMD ["node", "dist/apps/gateway/main.cjs"]
