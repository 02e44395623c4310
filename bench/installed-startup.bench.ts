import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyBuiltInPlugins } from '../src/testing/copy-plugin-folders.js';
import { makeInstalledBot } from '../test/package/support/installed-bot.js';
import { personEnvironment } from '../test/package/support/run-command.js';
import { ROOT } from './support/scratch.js';

// Alternating runs; the median of each side is compared (a loaded machine makes single runs vary by 2x).
const RUNS = 7;
const READY = '"msg":"ready in';

/** Milliseconds from spawning `npm start` in `cwd` until the host logs that it is ready (then its input ends and it stops). */
function npmStartUntilReady(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['start', ...args], { cwd, env: personEnvironment(env), stdio: ['pipe', 'ignore', 'pipe'] });
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (seen.includes(READY)) return;
      seen += chunk;
      if (!seen.includes(READY)) return;
      const ms = performance.now() - started;
      child.stdin.end(); // the console adapter's input ends: the bot stops
      child.once('exit', () => resolve(ms));
    });
    child.once('exit', (code) => {
      if (!seen.includes(READY)) reject(new Error(`npm start in ${cwd} exited (${code}) before it was ready:\n${seen}`));
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Ready time of a bot project made by `npx moonglass init` on the packed moonglass (the host
 * runs from its compiled dist/, only the project's plugin.ts is compiled) against `npm start`
 * of this checkout (the host's own TypeScript compiled through tsx at every start), in the same
 * run, alternating. Goal: the installed package at least 2x faster to ready.
 */
export async function benchInstalledStartup(): Promise<boolean> {
  // Outside the checkout, as a bot project is (see test/package/installed-package.test.ts).
  const scratch = mkdtempSync(join(tmpdir(), 'moonglass-bench-installed-'));
  try {
    const bot = await makeInstalledBot(ROOT, scratch, 'bench-bot');
    const checkoutArgs = ['--', '--config-dir', join(scratch, 'checkout-config'), '--data-dir', join(scratch, 'checkout-data')];
    const checkoutEnv = { MOONGLASS_BUILT_IN_PLUGINS: copyBuiltInPlugins(join(scratch, 'checkout-built-in')) };
    // First starts write the default config files; not measured.
    await npmStartUntilReady(bot.project, [], {});
    await npmStartUntilReady(ROOT, checkoutArgs, checkoutEnv);
    const installed: number[] = [];
    const checkout: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      installed.push(await npmStartUntilReady(bot.project, [], {}));
      checkout.push(await npmStartUntilReady(ROOT, checkoutArgs, checkoutEnv));
    }
    const installedMs = median(installed);
    const checkoutMs = median(checkout);
    const ratio = checkoutMs / installedMs;
    console.log('\nStart-up of an installed bot project: `npm start` until ready, same run');
    console.log(`  this checkout (host compiled by tsx)         ${checkoutMs.toFixed(0).padStart(6)} ms (median of ${RUNS})`);
    console.log(`  scaffolded bot (packed moonglass, dist/)     ${installedMs.toFixed(0).padStart(6)} ms (median of ${RUNS})`);
    const runs = (values: number[]) => values.map((ms) => ms.toFixed(0)).join(', ');
    console.log(`  runs: checkout ${runs(checkout)}; installed ${runs(installed)}`);
    const met = ratio >= 2;
    console.log(`  goal: installed at least 2x faster -> ${ratio.toFixed(2)}x ${met ? 'MET' : 'MISSED'}`);
    return met;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// Alone: node --conditions=source --import ./src/register-typescript.mjs bench/installed-startup.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) await benchInstalledStartup();
