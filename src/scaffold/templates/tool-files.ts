// The project's tool settings: TypeScript for editors and `npm run typecheck`, vitest for
// `npm test`, git and npm.

export const TSCONFIG_JSON = `{
  // For editors and \`npm run typecheck\`. At run time moonglass compiles plugins itself
  // (no build step), with the same decorator settings.
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "experimentalDecorators": true,
    "useDefineForClassFields": true,
    "verbatimModuleSyntax": true,
    "skipLibCheck": true,
    "types": ["node"],
    "noEmit": true
  },
  "include": ["plugins", "test", "vitest.config.ts"]
}
`;

export const VITEST_CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Plugins use legacy decorators (@tool, @service ...), as moonglass compiles them at run time.
  oxc: { decorator: { legacy: true } },
  test: {
    // A plugin's tests live beside it (plugins/<name>/*.test.ts); test/ is for the rest.
    include: ['plugins/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
`;

export const GITIGNORE = `node_modules/
# the database, logs and plugin data (\`npm start\` creates it)
/data/
# written from each plugin's config model at start; config/ holds your settings
# (models.toml and config/adapters/*.toml may hold API keys and tokens: keep them private)
plugins/**/config.toml
*.log
# the scratch folders createTestHost (moonglass/testing) makes for each test
.moonglass-test/
`;

export const NPMRC = `# npm prints a banner ("> my-bot@0.1.0 start" and the command) on stdout before every
# script, which would mix into \`echo 你好 | npm start\`, whose stdout is the conversation.
# loglevel=silent hides it, and npm's own messages too: add --loglevel=warn to see them
# (\`npm install --loglevel=warn\` when an install fails).
loglevel=silent
`;

export const CONFIG_README = `# config/

\`npm start\` writes the host's settings here on first start, each file with comments:
\`bot.toml\` (the bot's name, accounts, adapter), \`models.toml\` (model providers; with none
the bot talks to an offline demo model), \`features.toml\`, \`mcp.toml\` and
\`adapters/<name>.toml\`. \`npm run check\` validates them without starting.

\`plugins/<id>.toml\` holds the settings of each plugin whose code is not in this project's
\`plugins/\` folder (the built-in plugins, plugin packages from npm), so that reinstalling
them keeps your settings. A plugin in \`plugins/<name>/\` keeps its \`config.toml\` beside it.
`;
