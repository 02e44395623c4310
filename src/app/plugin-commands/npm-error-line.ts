/** npm's error, in one line: its `npm error` lines without the log-file hints. */
export function npmErrorLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.replace(/^npm (error|ERR!) ?/, '').trim());
  const useful = lines.filter((line) => line !== '' && !/complete log of this run|A complete log|^\/.*debug-\d+\.log$/.test(line) && !/^npm (warn|WARN)/.test(line));
  // npm's `code X` / `syscall X` / `errno X` lines only repeat what its message says.
  const message = useful.filter((line) => !/^(code|syscall|errno) \S+$/.test(line));
  return (message.length > 0 ? message : useful).slice(0, 1).join(' ') || 'npm exited without saying why';
}

/** npm's error code (`E404`, `ETARGET`, `ECONNREFUSED` …) from its stderr, when it printed one. */
export function npmErrorCode(stderr: string): string | undefined {
  return /^npm (?:error|ERR!) code (\S+)$/m.exec(stderr)?.[1];
}

/** One try per request: an unreachable registry is reported at once, not after npm's retries. */
export const NO_RETRIES = ['--fetch-retries=0'] as const;

/** `--registry <url>` when one was given, else nothing (npm's own setting applies). */
export function registryArgs(registry: string | undefined): string[] {
  return registry === undefined ? [] : ['--registry', registry];
}

/**
 * npm's error code and one-line message for a failed run. With `--json` npm prints its error
 * as JSON on stdout (`{"error":{"code","summary"}}`), and its stderr may be silent (a
 * `loglevel=silent` .npmrc); that is read first.
 */
export function npmFailure(stdout: string, stderr: string): { code: string | undefined; line: string } {
  try {
    const parsed = JSON.parse(stdout) as { error?: { code?: unknown; summary?: unknown } };
    if (typeof parsed.error?.summary === 'string') {
      return { code: typeof parsed.error.code === 'string' ? parsed.error.code : npmErrorCode(stderr), line: parsed.error.summary.split('\n')[0]! };
    }
  } catch {
    // not JSON: the stderr lines tell
  }
  return { code: npmErrorCode(stderr), line: npmErrorLine(stderr) };
}
