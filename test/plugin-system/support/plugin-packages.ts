import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../support/temp-dir.js';

/** The host version of this checkout is 0.1.x: a range a third-party plugin must name. */
export const HOST_RANGE = { min_version: '0.1.0', max_version: '0.1.99' };

export function pluginManifest(id: string, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ manifest_version: 1, id, plugin_type: 'tool', name: id, version: '1.0.0', description: `the ${id} plugin`, host_application: HOST_RANGE, ...extra }, null, 2)}\n`;
}

/**
 * A `moonglass` package for a project in `.vitest-temp/`: its index re-exports the
 * checkout's `src/index.ts` by URL, so a plugin package's `import ... from 'moonglass'`
 * reaches the same module instances as the host that runs it (as in an installed project,
 * where the host is node_modules/moonglass itself).
 */
export function writeMoonglassStandIn(project: string): void {
  const folder = join(project, 'node_modules', 'moonglass');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'moonglass', version: '0.1.0', type: 'module', exports: { '.': './index.js' } })}\n`);
  writeFileSync(join(folder, 'index.js'), `export * from ${JSON.stringify(pathToFileURL(join(projectRoot, 'src/index.ts')).href)};\n`);
}

/** `tiny-shout`: a library with no moonglass in it, as a plugin's own npm dependency. */
export const TINY_SHOUT = {
  'package.json': `${JSON.stringify({ name: 'tiny-shout', version: '1.0.0', type: 'module', main: 'index.js', exports: { '.': './index.js' } })}\n`,
  'index.js': "export function shout(text) {\n  return `${String(text).toUpperCase()} (tiny-shout)`;\n}\n",
};

/**
 * The files of a plugin package `name` with plugin id `id`: package.json (keyword
 * `moonglass-plugin`, depending on tiny-shout; moonglass itself is the project's, found by walking up), `_manifest.json`, and a `plugin.js` whose
 * tool `shout_text` answers through tiny-shout and the `suffix` of its config.
 */
export function shoutPackage(name: string, id: string, manifestExtra: Record<string, unknown> = {}): Record<string, string> {
  return {
    'package.json': `${JSON.stringify({ name, version: '1.0.0', type: 'module', keywords: ['moonglass-plugin'], dependencies: { 'tiny-shout': '^1.0.0' } }, null, 2)}\n`,
    '_manifest.json': pluginManifest(id, manifestExtra),
    'plugin.js': [
      "import * as z from 'zod';",
      "import { PluginConfig, ToolExecutionResult, ToolPlugin, tool } from 'moonglass';",
      "import { shout } from 'tiny-shout';",
      '',
      "export const ShoutConfig = PluginConfig.extend({ suffix: z.string().default('!').describe('put after every shout') });",
      '',
      'export class ShoutPlugin extends ToolPlugin {',
      '  static configModel = ShoutConfig;',
      '  async shoutText(invocation) {',
      '    return ToolExecutionResult.ok(invocation.toolName, `${shout(invocation.arguments.text)}${this.config.suffix}`);',
      '  }',
      '}',
      // No decorators in plain JavaScript: the decorator is a function of the prototype.
      "tool({ name: 'shout_text', description: '当用户要求大声说一句话时调用。', parameters: z.object({ text: z.string().max(40) }) })(",
      "  ShoutPlugin.prototype, 'shoutText', Object.getOwnPropertyDescriptor(ShoutPlugin.prototype, 'shoutText'),",
      ');',
      '',
    ].join('\n'),
  };
}

export function writeFiles(folder: string, files: Record<string, string>): void {
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
}
