import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from '../support/temp-dir.js';

/**
 * A copy of this checkout in a temporary folder, as a fresh `git clone` of the working tree
 * would give it: every tracked file and every untracked one git does not ignore, so nothing a
 * local run generated (config/, data/, plugin config.toml files) comes along. `node_modules`
 * is linked, not installed, and the folder is a git repository of its own. Returns the folder and a function that removes it.
 */
export function freshCheckout(): { folder: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'moonglass-checkout-'));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: projectRoot, encoding: 'utf8' });
    for (const file of listed.split('\0')) {
      // A tracked file deleted in the working tree is not part of it; node_modules is linked below
      // (git lists it when it is itself a link, as in a scratch clone).
      if (file === '' || file === 'node_modules' || !existsSync(join(projectRoot, file))) continue;
      const source = join(projectRoot, file);
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      const kind = lstatSync(source);
      if (kind.isSymbolicLink()) symlinkSync(readlinkSync(source), join(folder, file));
      else if (kind.isFile()) copyFileSync(source, join(folder, file));
    }
    symlinkSync(join(projectRoot, 'node_modules'), join(folder, 'node_modules'));
    // A repository, as a clone is (what git ignores there is part of what tests check).
    execFileSync('git', ['init', '-q'], { cwd: folder });
  } catch (error) {
    remove(); // a half-made copy is not left behind
    throw error;
  }
  return { folder, remove };
}

/**
 * The environment of a person's shell: without what npm, vitest or a test run put there
 * (`npm_config_*` from an `npm test`, `MOONGLASS_BUILT_IN_PLUGINS`, `VITEST`), which would
 * change what `npm start` and a nested test run do.
 */
export function shellEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|MOONGLASS_)/i.test(key) || key === 'NODE_ENV' || key === 'TEST' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return env;
}

/** What a finished command printed, and how it ended. */
export interface CommandOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command args` in `cwd` with `input` on its stdin (then closed) and resolves once it
 * exits; killed (and rejected, with what it printed) after `timeoutMs`.
 */
export function runCommand(command: string, args: readonly string[], options: { cwd: string; input?: string; timeoutMs: number }): Promise<CommandOutcome> {
  // Its own process group, so a timeout also ends what it started (npm runs the bot as a child).
  const child: ChildProcess = spawn(command, args, { cwd: options.cwd, env: shellEnvironment(), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin!.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close' comes once the process exited and both pipes are drained.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
