// `moonglass plugin new <name>`: the files of a publishable plugin package.

export interface PluginPackageFileOptions {
  /** The npm package name, also the folder created (its last part for a scoped name). */
  name: string;
  /** The manifest id. */
  id: string;
  hostVersion: string;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The package's files by relative path, in the order they are reported. */
export function pluginPackageFiles(options: PluginPackageFileOptions): Map<string, string> {
  const [major, minor] = options.hostVersion.split('.');
  const hostRange = { min_version: `${major}.${minor}.0`, max_version: `${major}.${minor}.99` };
  const files = new Map<string, string>();
  files.set(
    'package.json',
    json({
      name: options.name,
      version: '0.1.0',
      description: `A moonglass plugin (${options.id}).`,
      keywords: ['moonglass-plugin'],
      type: 'module',
      main: 'plugin.js',
      // What npm publishes: the manifest and the entry (the test and README stay out).
      files: ['_manifest.json', 'plugin.js'],
      // The host is the bot project's own dependency; the plugin names the versions it fits.
      peerDependencies: { moonglass: `^${major}.${minor}.0` },
      // `moonglass plugin search` reads this from the registry; keep it equal to _manifest.json.
      moonglass: { host_application: hostRange },
      scripts: { test: 'vitest run' },
    }),
  );
  files.set(
    '_manifest.json',
    json({
      manifest_version: 1,
      id: options.id,
      plugin_type: 'tool',
      name: options.id,
      version: '0.1.0',
      description: `The ${options.id} plugin.`,
      host_application: hostRange,
    }),
  );
  files.set(
    'plugin.js',
    `// Plain JavaScript, so the package needs no build step (a plugin.ts entry works too: the host
// compiles TypeScript in packages, and caches the result). Without a TypeScript compiler there are no decorator
// expressions: \`tool(...)\` is applied as the function it is, below. Guide: moonglass docs,
// "Plugin packages and publishing".
import * as z from 'zod';
import { PluginConfig, ToolExecutionResult, ToolPlugin, tool } from 'moonglass';

// The plugin's settings: config/plugins/${options.id}.toml in the bot project, with these defaults.
export const GreetConfig = PluginConfig.extend({
  greeting: z.string().default('Hello').describe('the word put before the name'),
});

export class GreetPlugin extends ToolPlugin {
  static configModel = GreetConfig;

  async greet(invocation) {
    return ToolExecutionResult.ok(invocation.toolName, \`\${this.config.greeting}, \${invocation.arguments.name}!\`);
  }
}

tool({
  name: 'greet',
  description: 'Use when someone asks to be greeted. Returns the greeting.',
  parameters: z.object({ name: z.string().max(40).describe('who to greet') }),
})(GreetPlugin.prototype, 'greet', Object.getOwnPropertyDescriptor(GreetPlugin.prototype, 'greet'));
`,
  );
  files.set(
    'plugin.test.js',
    `// Run in this folder: \`npm install --save-dev moonglass vitest\` once, then \`npm test\`.
// (npm publishes only _manifest.json and plugin.js, so this test stays with the source.)
import { describe, expect, it } from 'vitest';
import { GreetConfig } from './plugin.js';

describe('${options.name}', () => {
  it('has a greeting by default', () => {
    expect(GreetConfig.parse({}).greeting).toBe('Hello');
  });
});
`,
  );
  files.set(
    'README.md',
    `# ${options.name}

A moonglass plugin package (manifest id \`${options.id}\`).

- \`npm publish\` sends \`_manifest.json\` and \`plugin.js\` to your registry.
- In a bot project: \`npm install ${options.name}\`, then \`moonglass plugins\` lists it loaded.
- Its settings: \`config/plugins/${options.id}.toml\` in the bot project.
- Keep \`host_application\` in \`_manifest.json\` and \`moonglass.host_application\` in package.json equal:
  the host loads by the first, \`moonglass plugin search\` reads the second.
`,
  );
  return files;
}
