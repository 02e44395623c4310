import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** One problem a {@link ManifestError} reports. */
export interface ManifestIssue {
  /** The manifest field, dotted (`host_application.min_version`); empty for the whole file. */
  field: string;
  /** What is wrong with the field. */
  reason: string;
}

/** A `_manifest.json` that cannot be used; the plugin is skipped before any of its code runs. */
export class ManifestError extends MoonglassError {
  /** The plugin folder whose `_manifest.json` was refused. */
  readonly folder: string;
  /** Every problem found, one per field. */
  readonly issues: readonly ManifestIssue[];

  constructor(folder: string, issues: readonly ManifestIssue[], options: { cause?: unknown } = {}) {
    const lines = issues.map((issue) => `  - ${issue.field === '' ? '(file)' : issue.field}: ${issue.reason}`);
    super('MG_PLUGIN_MANIFEST', `插件清单无效 ${folder}/_manifest.json:\n${lines.join('\n')}`, options);
    this.folder = folder;
    this.issues = issues;
  }
}
