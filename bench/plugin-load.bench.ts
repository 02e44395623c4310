import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const COUNT = 200;
const BENCH_DIR = fileURLToPath(new URL('./', import.meta.url));
// Inside bench/ (ignored by git); tsx compiles them with moonglass's runtime tsconfig, as any plugin.
const GENERATED = join(BENCH_DIR, 'generated-plugins');

export function generate(root: string): void {
  rmSync(root, { recursive: true, force: true });
  for (let index = 0; index < COUNT; index += 1) {
    const folder = join(root, `plugin-${String(index).padStart(3, '0')}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, '_manifest.json'),
      JSON.stringify({
        manifest_version: 1,
        id: `bench.plugin-${index}`,
        plugin_type: 'tool',
        name: `Bench ${index}`,
        version: '1.0.0',
        description: 'generated for the load benchmark',
        host_application: { min_version: '0.1.0', max_version: '0.9.9' },
      }),
    );
    writeFileSync(
      join(folder, 'plugin.ts'),
      `import * as z from 'zod';
import { PluginConfig, ToolExecutionResult, ToolPlugin, service, tool, type ToolInvocation } from 'moonglass';

export const Config${index} = PluginConfig.extend({
  greeting: z.string().default('hello ${index}').describe('What the tool says'),
  limit: z.number().int().default(${index}).describe('A number'),
});

@service('store_${index}')
export class Store${index} {}

export class Plugin${index} extends ToolPlugin<z.output<typeof Config${index}>> {
  static override configModel = Config${index};
  override components() {
    return [Store${index}];
  }
  @tool({ name: 'tool_${index}', description: 'Use when the user asks for tool ${index}.', parameters: z.object({ text: z.string().max(100) }) })
  async run(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    return ToolExecutionResult.ok(invocation.toolName, this.config.greeting);
  }
}
`,
    );
  }
}

function runChild(mode: 'host' | 'bare-import', root: string, env: NodeJS.ProcessEnv): { ms: number; loaded: number } {
  const output = execFileSync(
    process.execPath,
    ['--conditions=source', '--import', './src/register-typescript.mjs', join(BENCH_DIR, 'plugin-load-child.ts'), mode, root, join(GENERATED, 'data')],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as { ms: number; loaded: number };
}

export function benchPluginLoad(): boolean {
  const root = join(GENERATED, 'root');
  generate(root);
  const noCache = { TSX_DISABLE_CACHE: '1' };
  // Cold: nothing compiled, no config.toml yet (each plugin writes one).
  const bareCold = runChild('bare-import', root, noCache);
  const cold = runChild('host', root, noCache);
  // Warm: config files exist and tsx's compile cache is filled.
  runChild('bare-import', root, {});
  const bareWarm = runChild('bare-import', root, {});
  const warm = runChild('host', root, {});
  rmSync(GENERATED, { recursive: true, force: true });

  const perPlugin = (ms: number) => ms / COUNT;
  console.log(`\nPlugin discovery and load: ${COUNT} generated plugins (each: a config model, a @tool, a @service)`);
  const row = (label: string, result: { ms: number; loaded: number }, baseline?: { ms: number }) =>
    console.log(
      `  ${label.padEnd(44)} ${result.ms.toFixed(0).padStart(6)} ms  ${perPlugin(result.ms).toFixed(2).padStart(6)} ms/plugin` +
        (baseline === undefined ? '' : `  ${(result.ms / baseline.ms).toFixed(2)}x bare import`) +
        `  (${result.loaded} loaded)`,
    );
  row('bare import of all entries at once, cold', bareCold);
  row('host start (discover, config, import, register), cold', cold, bareCold);
  row('bare import of all entries at once, warm', bareWarm);
  row('host start, warm', warm, bareWarm);
  console.log(
    `  where the time goes: compiling and importing the entries (tsx/esbuild) is ${((bareCold.ms / cold.ms) * 100).toFixed(0)}% of a cold start; ` +
      `discovery, config files, registration and onLoad add ${perPlugin(cold.ms - bareCold.ms).toFixed(2)} ms per plugin cold, ` +
      `${perPlugin(warm.ms - bareWarm.ms).toFixed(2)} ms warm`,
  );
  const met = perPlugin(cold.ms) < 10 && cold.loaded === COUNT && warm.loaded === COUNT;
  console.log(`  goal: cold load < 10 ms per plugin -> ${perPlugin(cold.ms).toFixed(2)} ms ${met ? 'MET' : 'MISSED'}`);
  return met;
}
