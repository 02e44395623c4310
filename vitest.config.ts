import { defineConfig } from 'vitest/config';

// `source` makes `import ... from 'moonglass'` (package self-reference) resolve to src/,
// the same files the tests import by path: one copy of every class.
const conditions = ['source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  // Legacy decorators for every file, also plugin copies in .vitest-temp/ that tsconfig's
  // `include` does not list (the host itself runs plugins through tsx and the tsconfig).
  oxc: { decorator: { legacy: true } },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    // Tests beside a plugin (plugins/<name>/*.test.ts) run with the rest.
    include: ['test/**/*.test.ts', 'plugins/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    restoreMocks: true,
    // The MCP SDK's HTTP client imports eventsource-parser, whose `source` export points at
    // TypeScript; inlined, the SDK's imports go through vite, which compiles that source.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk/] } },
  },
});
