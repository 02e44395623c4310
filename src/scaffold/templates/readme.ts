/** The new project's README: how to run it, test it, add a plugin and run it beside NapCat. */
export function projectReadme(name: string): string {
  return `# ${name}

A chat bot on [moonglass](https://www.npmjs.com/package/moonglass).

\`\`\`sh
npm install
npm start                 # chat with the bot in this terminal (Ctrl+C stops)
echo "你好" | npm start    # one message per line from a pipe
npm test                  # the plugins' tests (plugins/**/*.test.ts)
npm run check             # validate config/ and load every plugin without starting
\`\`\`

With no model in \`config/models.toml\` the bot answers with an offline demo model
(\`（演示模型）收到：你好\`); add a provider there (any OpenAI-compatible endpoint) to talk to a
real one. \`npm start -- --adapter onebot_v11\` talks to QQ through NapCat or Lagrange instead
of the terminal.

## Plugins

Each folder in \`plugins/\` is a plugin: \`_manifest.json\` and \`plugin.ts\`, loaded at the next
start with no build step. \`plugins/dice/\` is an example, with its test beside it; copy it to
start your own. \`import ... from 'moonglass'\` gives everything a plugin needs.

## Docker, beside NapCat

\`compose.yaml\` runs the bot (built from \`Dockerfile\`) and NapCat side by side:

1. \`npm install\` once (the image installs from \`package-lock.json\`), then \`docker compose up -d\`.
2. In \`config/adapters/onebot_v11.toml\` (written at the first start) set \`access_token\` and, in
   \`[reverse]\`, \`host = "0.0.0.0"\`, so that NapCat's container can connect; put the bot's QQ
   number in \`config/bot.toml [accounts] qq\`. \`docker compose restart bot\`.
3. Open NapCat's web UI at http://127.0.0.1:6099, log in to QQ, and add a network
   *WebSocket client* with the URL \`ws://bot:8095/onebot/v11/ws\` and the same token.

\`docker compose logs -f bot\` shows the bot's start-up report and log.
`;
}
