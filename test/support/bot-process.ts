import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach } from 'vitest';
import { copyBuiltInPlugins } from '../../src/testing/copy-plugin-folders.js';
import { projectRoot } from './temp-dir.js';

/** A moonglass CLI running as a real child process, its output collected line by line. */
export interface BotProcess {
  child: ChildProcess;
  stdout: string[];
  /** stderr lines; JSON log lines parsed (the console adapter logs to stderr). */
  stderr: string[];
  logs: Record<string, unknown>[];
  /** Resolves with the first stdout line matching, or rejects after `timeoutMs` naming what was seen. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the first log record whose msg matches. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface BotProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** `config.toml` text per built-in plugin folder (written into the scratch copy), e.g. `{ neo_default_chatter: '[plugin]\n…' }`. */
  pluginConfigs?: Record<string, string>;
  /**
   * Run inside a pseudo-terminal (util-linux `script`, part of every Debian), so the bot sees
   * a TTY as in a person's terminal; stdout and stderr then arrive together on stdout.
   */
  tty?: boolean;
}

const REGISTER_TYPESCRIPT = pathToFileURL(join(projectRoot, 'src/register-typescript.mjs')).href;

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function scratchParent(): string {
  const parent = join(projectRoot, '.vitest-temp');
  mkdirSync(parent, { recursive: true });
  return parent;
}

/** Runs `src/app/main.ts <args>` the way `npm start` does; killed after the test if still running. */
export function useBotProcesses(): (args: readonly string[], options?: BotProcessOptions) => BotProcess {
  const running: ChildProcess[] = [];
  const scratch: string[] = [];
  afterEach(async () => {
    for (const child of running.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await gone;
      }
    }
    for (const folder of scratch.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return (args, options = {}) => {
    // A scratch copy of the built-in plugins: they write their config.toml beside their code.
    const builtIns = copyBuiltInPlugins(mkdtempSync(join(scratchParent(), 'built-in-')));
    scratch.push(builtIns);
    for (const [name, text] of Object.entries(options.pluginConfigs ?? {})) writeFileSync(join(builtIns, name, 'config.toml'), text);
    // Bots started side by side must not fight over the web console's default port.
    const features = join(options.cwd ?? projectRoot, 'config', 'features.toml');
    if (options.cwd !== undefined && args[0] === 'start' && !existsSync(features)) {
      mkdirSync(join(options.cwd, 'config'), { recursive: true });
      writeFileSync(features, '[admin]\nport = 0\n');
    }
    const command = [process.execPath, '--conditions=source', '--import', REGISTER_TYPESCRIPT, join(projectRoot, 'src/app/main.ts'), ...args];
    const [file, argv] = options.tty === true ? ['script', ['-qfec', command.map(shellQuote).join(' '), '/dev/null']] : [command[0]!, command.slice(1)];
    const child = spawn(file, argv, {
      cwd: options.cwd ?? projectRoot,
      env: { ...process.env, MOONGLASS_BUILT_IN_PLUGINS: builtIns, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    running.push(child);
    const stdout: string[] = [];
    const stderr: string[] = [];
    const logs: Record<string, unknown>[] = [];
    const listeners = new Set<() => void>();
    const notify = () => {
      for (const listener of [...listeners]) listener();
    };
    const collect = (stream: NodeJS.ReadableStream, lines: string[], parse: boolean) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        rest += chunk;
        const parts = rest.split('\n');
        rest = parts.pop()!;
        for (const line of parts) {
          lines.push(line);
          if (parse && line.startsWith('{')) {
            try {
              logs.push(JSON.parse(line) as Record<string, unknown>);
            } catch {
              // not a log line
            }
          }
        }
        notify();
      });
    };
    collect(child.stdout!, stdout, true);
    collect(child.stderr!, stderr, true);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => {
        resolve({ code, signal });
        notify();
      }),
    );
    const waitFor = <T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = find();
          if (found !== undefined) {
            finish();
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            finish();
            reject(new Error(`the process exited before ${what}\nstdout:\n${stdout.join('\n')}\nstderr:\n${stderr.join('\n')}`));
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\nstdout:\n${stdout.join('\n')}\nstderr:\n${stderr.join('\n')}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    return {
      child,
      stdout,
      stderr,
      logs,
      exited,
      waitForStdout: (pattern, timeoutMs = 30_000) => waitFor(() => stdout.find((line) => pattern.test(line)), `stdout ${pattern}`, timeoutMs),
      waitForLog: (pattern, timeoutMs = 30_000) =>
        waitFor(() => logs.find((record) => pattern.test(String(record['msg']))), `a log line ${pattern}`, timeoutMs),
    };
  };
}
