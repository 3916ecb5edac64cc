# The API and pages as one Cloud Run service (docs/decisions/0022-firebase-hosting-and-cloud-run.md).
# Build: docker build -t tutorbook .   Run: docker run -p 8080:8080 -e DATABASE_URL=postgres://… tutorbook
# `.ci/run` checks these steps without a container (no base image can be pulled on the CI machines).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The client is built here; the server runs its TypeScript directly (decision 0001): no compile step.
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src ./src
USER node
EXPOSE 8080
CMD ["node", "src/server/main.ts"]
