# The API and pages as one Cloud Run service (docs/decisions/0022-firebase-hosting-and-cloud-run.md).
# Build: docker build -t tutorbook .   Run: docker run -p 8080:8080 -e DATABASE_URL=postgres://… tutorbook
# `.ci/run` builds and runs it with podman (scripts/check-image.sh): Docker Hub is out of reach there, so that
# check gives NODE_IMAGE a stand-in for node:24-bookworm-slim made from Debian bookworm and Node 24.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The client is built here; the server runs its TypeScript directly (decision 0001): no compile step.
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src ./src
USER node
EXPOSE 8080
CMD ["node", "src/server/main.ts"]
