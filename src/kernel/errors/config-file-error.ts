import { MoonglassError } from './moonglass-error.js';

/** One problem a {@link ConfigFileError} reports. */
export interface ConfigIssue {
  /** Dotted path of the field inside the file, e.g. `advanced.event_handler_timeout`; empty for the whole file. */
  path: string;
  /** What is wrong there, in words a user can act on. */
  reason: string;
}

/** A configuration file that cannot be read, parsed or validated. Nothing in it was changed. */
export class ConfigFileError extends MoonglassError {
  /** The configuration file's path, as the host was given it. */
  readonly file: string;
  /** Every problem found, one per field (a parse error is one issue for the whole file). */
  readonly issues: readonly ConfigIssue[];

  constructor(file: string, issues: readonly ConfigIssue[], options: { cause?: unknown } = {}) {
    const lines = issues.map((issue) => `  - ${issue.path === '' ? '(file)' : issue.path}: ${issue.reason}`);
    super('MG_CONFIG_FILE', `invalid configuration file ${file}:\n${lines.join('\n')}`, options);
    this.file = file;
    this.issues = issues;
  }
}
