import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// What the test process itself runs under (vitest's workers, a tsx loader, moonglass test
// settings) is not handed on: the commands run as in a person's shell.
const NOT_INHERITED = /^(VITEST|MOONGLASS_|TSX_|NODE_OPTIONS$|NODE_ENV$|FORCE_COLOR$)/;

export function personEnvironment(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.test(name)));
  return { ...inherited, ...extra };
}

/** Runs a command to its end (stdin gets `input`, then ends); never throws for an exit code. */
export function runCommand(command: string, args: readonly string[], options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: personEnvironment(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Like runCommand, but a non-zero exit is an error carrying the command's output. */
export async function runOrThrow(command: string, args: readonly string[], options: Parameters<typeof runCommand>[2]): Promise<CommandResult> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return result;
}
