import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyBuiltInPlugins } from '../src/testing/copy-plugin-folders.js';
import { describeSamples, judgeGoal, median } from './support/goal.js';
import { benchScratch, ROOT } from './support/scratch.js';

const RUNS = 5;
const NODE_FLAGS = ['--conditions=source', '--import', join(ROOT, 'src/register-typescript.mjs')];

/** Milliseconds from spawning `args` until a stderr line contains `marker` (then the process is ended). */
function timeUntil(args: string[], marker: string | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let seen = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      seen += chunk;
      if (marker !== undefined && seen.includes(marker)) {
        const ms = performance.now() - started;
        child.stdin.end(); // the console adapter's input ends: the bot stops
        child.once('exit', () => resolve(ms));
      }
    });
    child.once('exit', (code) => {
      if (marker === undefined) resolve(performance.now() - started);
      else if (!seen.includes(marker)) reject(new Error(`exited (${code}) before "${marker}":\n${seen}`));
    });
  });
}

/**
 * `npm start` until "ready" (the console adapter is up and the prompt would show), against
 * the same Node with the same TypeScript loader doing nothing (`-e 0`), in the same run,
 * alternating. Goal: ready within 2 s, judged on the median of the runs.
 */
export async function benchStartup(): Promise<boolean> {
  const scratch = benchScratch('startup-');
  const builtIns = copyBuiltInPlugins(join(scratch, 'built-in'));
  const env = { MOONGLASS_BUILT_IN_PLUGINS: builtIns };
  const start = [...NODE_FLAGS, join(ROOT, 'src/app/main.ts'), 'start', '--config-dir', join(scratch, 'config'), '--data-dir', join(scratch, 'data')];
  try {
    const first = await timeUntil(start, '"msg":"ready in', env); // writes the default config files
    const bare: number[] = [];
    const ready: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      bare.push(await timeUntil([...NODE_FLAGS, '-e', '0'], undefined, env));
      ready.push(await timeUntil(start, '"msg":"ready in', env));
    }
    const baseline = median(bare);
    const readyMs = median(ready);
    console.log('\nStart-up: `npm start` (host, plugins, console adapter process) until ready');
    console.log(`  node + TypeScript loader, doing nothing     ${describeSamples(bare, ' ms')}`);
    console.log(`  first start (writes the config files)       ${first.toFixed(0)} ms`);
    console.log(`  start until ready                           ${describeSamples(ready, ' ms')}  ${(readyMs / baseline).toFixed(2)}x the bare loader`);
    return judgeGoal({ label: 'checkout `npm start` until ready', samples: ready, comparison: '<', limit: 2_000, unit: ' ms' });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
