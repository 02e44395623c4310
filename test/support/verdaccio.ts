import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { projectRoot } from './temp-dir.js';

const run = promisify(execFile);

/** A real npm registry (Verdaccio) on loopback, with its own storage folder; nothing goes upstream. */
export interface LoopbackRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** An `.npmrc` that points npm at this registry with a user's token (give it as `--userconfig`). */
  npmrc: string;
  /** Publishes the package folder `dir` (`npm publish` through the registry). */
  publish(dir: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts Verdaccio (a dev dependency) on a free loopback port with a temporary storage
 * folder and no uplink, adds a user and writes an `.npmrc` holding its token.
 */
export async function startLoopbackRegistry(): Promise<LoopbackRegistry> {
  const parent = join(projectRoot, '.vitest-temp');
  mkdirSync(parent, { recursive: true });
  const home = mkdtempSync(join(parent, 'registry-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  writeFileSync(
    join(home, 'config.yaml'),
    [
      `storage: ${join(home, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(home, 'htpasswd')}`,
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    unpublish: $authenticated',
      'log: { type: stdout, format: json, level: warn }',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(process.execPath, [join(projectRoot, 'node_modules/verdaccio/bin/verdaccio'), '--config', join(home, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    cwd: home,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Verdaccio did not start on ${url}: ${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const user = await fetch(`${url}-/user/org.couchdb.user:tester`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tester', password: 'tester-password', email: 'tester@example.invalid' }),
  });
  const { token } = (await user.json()) as { token?: string };
  if (!user.ok || token === undefined) throw new Error(`Verdaccio refused the test user: ${user.status}`);
  const npmrc = join(home, '.npmrc');
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  return {
    url,
    npmrc,
    async publish(dir) {
      await run('npm', ['publish', '--registry', url, '--userconfig', npmrc, '--loglevel=warn'], { cwd: dir });
    },
    async close() {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
