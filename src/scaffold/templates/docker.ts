// The bot in a container beside NapCat (QQ), for `docker compose up`. Documented in the
// project's README; moonglass's tests do not run them.

export const DOCKERFILE = `# The bot, talking to QQ through NapCat (compose.yaml starts both).
# Run \`npm install\` once first, so that package-lock.json exists.
FROM node:20-bookworm-slim
WORKDIR /bot
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --loglevel=warn
COPY plugins ./plugins
# config/, data/ and plugins/ are volumes (compose.yaml): settings, the database and the
# folder plugins' own config.toml outlive the container.
# node runs the host itself, as PID 1: \`docker stop\`'s SIGTERM reaches it and it stops
# cleanly (through npx or npm start the signal stops only npm, and Docker kills the bot 10 s later).
CMD ["node", "node_modules/moonglass/bin/moonglass.js", "start", "--adapter", "onebot_v11"]
`;

export const COMPOSE_YAML = `# docker compose up -d: the bot and NapCat side by side.
# NapCat connects to the bot by reverse WebSocket at ws://bot:8095/onebot/v11/ws (README.md).
services:
  bot:
    build: .
    volumes:
      - ./config:/bot/config
      - ./data:/bot/data
      - ./plugins:/bot/plugins
    restart: unless-stopped
  napcat:
    image: mlikiowa/napcat-docker:latest
    environment:
      - NAPCAT_UID=1000
      - NAPCAT_GID=1000
    ports:
      - "127.0.0.1:6099:6099" # NapCat's web UI: log in to QQ here
    volumes:
      - ./napcat/config:/app/napcat/config
      - ./napcat/qq:/app/.config/QQ
    depends_on:
      - bot
    restart: unless-stopped
`;
