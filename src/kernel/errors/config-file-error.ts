import { MoonglassError } from './moonglass-error.js';

export interface ConfigIssue {
  /** Dotted path of the field inside the file, e.g. `advanced.event_handler_timeout`; empty for the whole file. */
  path: string;
  reason: string;
}

/** A configuration file that cannot be read, parsed or validated. Nothing in it was changed. */
export class ConfigFileError extends MoonglassError {
  readonly file: string;
  readonly issues: readonly ConfigIssue[];

  constructor(file: string, issues: readonly ConfigIssue[], options: { cause?: unknown } = {}) {
    const lines = issues.map((issue) => `  - ${issue.path === '' ? '(file)' : issue.path}: ${issue.reason}`);
    super('MG_CONFIG_FILE', `invalid configuration file ${file}:\n${lines.join('\n')}`, options);
    this.file = file;
    this.issues = issues;
  }
}
