import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeSamples, judgeCondition, judgeGoal, median } from './support/goal.js';

const COUNT = 200;
/** Rounds of cold starts (each on freshly written plugins, no config files, no compile cache), then of warm ones. */
const ROUNDS = 5;
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

type ChildResult = { ms: number; loaded: number };

/** One bare import and one host start over `root`, the bare one first in even rounds, second in odd ones. */
function round(index: number, root: string, env: NodeJS.ProcessEnv): { bare: ChildResult; host: ChildResult } {
  if (index % 2 === 0) {
    const bare = runChild('bare-import', root, env);
    return { bare, host: runChild('host', root, env) };
  }
  const host = runChild('host', root, env);
  return { bare: runChild('bare-import', root, env), host };
}

/**
 * Host start over 200 generated plugins against importing the same entries bare, in
 * interleaved rounds (the order alternating). Goal (issue 20): a cold start under 10 ms per
 * plugin, judged on the median of the cold rounds; every plugin loaded in every run.
 */
export function benchPluginLoad(): boolean {
  const root = join(GENERATED, 'root');
  const noCache = { TSX_DISABLE_CACHE: '1' };
  const bareCold: ChildResult[] = [];
  const cold: ChildResult[] = [];
  // Cold: nothing compiled, no config.toml yet (each plugin writes one), a fresh data folder.
  for (let index = 0; index < ROUNDS; index += 1) {
    rmSync(GENERATED, { recursive: true, force: true });
    generate(root);
    const { bare, host } = round(index, root, noCache);
    bareCold.push(bare);
    cold.push(host);
  }
  // Warm: config files exist (the last cold host start wrote them) and tsx's compile cache is filled.
  runChild('bare-import', root, {});
  const bareWarm: ChildResult[] = [];
  const warm: ChildResult[] = [];
  for (let index = 0; index < ROUNDS; index += 1) {
    const { bare, host } = round(index, root, {});
    bareWarm.push(bare);
    warm.push(host);
  }
  rmSync(GENERATED, { recursive: true, force: true });

  const perPlugin = (results: readonly ChildResult[]) => results.map((result) => result.ms / COUNT);
  const medianMs = (results: readonly ChildResult[]) => median(results.map((result) => result.ms));
  console.log(`\nPlugin discovery and load: ${COUNT} generated plugins (each: a config model, a @tool, a @service), ${ROUNDS} interleaved rounds each`);
  const row = (label: string, results: readonly ChildResult[], baseline?: readonly ChildResult[]) =>
    console.log(
      `  ${label.padEnd(54)} ${medianMs(results).toFixed(0).padStart(6)} ms  ${describeSamples(perPlugin(results), ' ms/plugin')}` +
        (baseline === undefined ? '' : `  ${(medianMs(results) / medianMs(baseline)).toFixed(2)}x bare import`),
    );
  row('bare import of all entries at once, cold', bareCold);
  row('host start (discover, config, import, register), cold', cold, bareCold);
  row('bare import of all entries at once, warm', bareWarm);
  row('host start, warm', warm, bareWarm);
  console.log(
    `  where the time goes: compiling and importing the entries (tsx/esbuild) is ${((medianMs(bareCold) / medianMs(cold)) * 100).toFixed(0)}% of a cold start; ` +
      `discovery, config files, registration and onLoad add ${((medianMs(cold) - medianMs(bareCold)) / COUNT).toFixed(2)} ms per plugin cold, ` +
      `${((medianMs(warm) - medianMs(bareWarm)) / COUNT).toFixed(2)} ms warm`,
  );
  const loadedCounts = [...cold, ...warm].map((result) => result.loaded);
  const allLoaded = judgeCondition(
    `every one of the ${COUNT} plugins loaded, in every host start`,
    loadedCounts.every((loaded) => loaded === COUNT),
    `loaded ${[...new Set(loadedCounts)].join(', ')}`,
  );
  const fast = judgeGoal({ label: 'cold plugin load (host start / plugins)', samples: perPlugin(cold), comparison: '<', limit: 10, unit: ' ms per plugin' });
  return allLoaded && fast;
}
