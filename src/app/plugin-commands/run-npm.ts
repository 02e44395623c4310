import { spawn } from 'node:child_process';

export interface NpmResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the person's own `npm` (found on PATH) with `args`, so their configured registry,
 * mirror, proxy and credentials apply unchanged. Never throws for an exit code; a missing
 * npm gives code null and the spawn error as stderr. Runs in `cwd` (default: the working folder).
 */
export function runNpm(args: readonly string[], timeoutMs = 60_000, cwd?: string): Promise<NpmResult> {
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd === undefined ? {} : { cwd }) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `could not run npm: ${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
