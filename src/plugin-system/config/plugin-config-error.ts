import { MoonglassError, type MoonglassErrorOptions } from '../../kernel/errors/moonglass-error.js';

/**
 * A plugin's configuration cannot be settled: a field the model requires has no default and
 * the file does not give a usable value, or the model's own defaults do not validate. The
 * host marks that plugin failed; other plugins are not affected. The file is left as it was.
 */
export class PluginConfigError extends MoonglassError {
  /** The plugin whose configuration failed. */
  readonly pluginId: string;
  /** The `config.toml` that was read (or would have been written). */
  readonly file: string;
  /** Dotted path of the field inside `[plugin]`, e.g. `greeting` or `limits.per_day`; empty for the whole model. */
  readonly field: string;
  /** Why the field has no usable value. */
  readonly reason: string;

  constructor(pluginId: string, file: string, field: string, reason: string, options: MoonglassErrorOptions = {}) {
    const where = field === '' ? 'the config model' : `field "${field}"`;
    super(
      'MG_PLUGIN_CONFIG',
      `plugin "${pluginId}" has no usable configuration in ${file}: ${where} ${reason}. ` +
        'Set a valid value for it in the file, or give the field a default in the config model.',
      options,
    );
    this.pluginId = pluginId;
    this.file = file;
    this.field = field;
    this.reason = reason;
  }
}
