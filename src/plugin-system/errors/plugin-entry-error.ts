import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** A plugin's entry file is missing, fails to import, or does not hold exactly one ToolPlugin class. */
export class PluginEntryError extends MoonglassError {
  /** The plugin folder whose entry was refused. */
  readonly folder: string;
  /**
   * What is wrong: missing file, failed import (the import error is the `cause`), or not exactly
   * one ToolPlugin class.
   */
  readonly reason: string;

  constructor(folder: string, reason: string, options: { cause?: unknown } = {}) {
    super('MG_PLUGIN_ENTRY', `插件入口无效 ${folder}: ${reason}`, options);
    this.folder = folder;
    this.reason = reason;
  }
}
