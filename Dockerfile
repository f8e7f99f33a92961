# syntax=docker/dockerfile:1
# Node.js 22, an LTS line with security fixes (20 reached its end of life). CI runs the fast test
# tier on 22 as well (.ci/run, scripts/with-node.sh).
# Pinned by digest (deploy/README.md, The image by digest): `docker buildx imagetools inspect
# node:22-bookworm-slim` gives the current one when the base is updated.
FROM node:22-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# A heap limit makes V8 collect before it grows: without one, RSS under load climbs past 300 MB
# of mostly garbage (bench/README.md, scenario 6).
CMD ["node", "--max-old-space-size=256", "dist/src/main.js"]
