import { MoonglassError, type MoonglassErrorOptions } from '../../kernel/errors/moonglass-error.js';

export interface PluginConfigErrorOptions extends MoonglassErrorOptions {
  /** How to fix it, when the usual advice (set a valid value, or give the field a default) does not apply. */
  fix?: string;
}

/**
 * A plugin's configuration cannot be settled: a field the model requires has no default and
 * the file does not give a usable value, the model's own defaults do not validate, or the
 * model puts `secret()` where it cannot be kept secret (inside an array or a record). The
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

  constructor(pluginId: string, file: string, field: string, reason: string, options: PluginConfigErrorOptions = {}) {
    const where = field === '' ? 'the config model' : `field "${field}"`;
    super(
      'MG_PLUGIN_CONFIG',
      `plugin "${pluginId}" has no usable configuration in ${file}: ${where} ${reason}. ` +
        (options.fix ?? 'Set a valid value for it in the file, or give the field a default in the config model.'),
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.pluginId = pluginId;
    this.file = file;
    this.field = field;
    this.reason = reason;
  }
}
