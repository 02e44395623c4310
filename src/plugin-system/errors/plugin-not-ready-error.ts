import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** A plugin read `this.ctx` or `this.config` before the host set them (in its constructor, say). */
export class PluginNotReadyError extends MoonglassError {
  /** The plugin that read too early. */
  readonly pluginId: string;
  /** Which member was read: `ctx` or `config`. */
  readonly member: 'ctx' | 'config';

  constructor(pluginId: string, member: 'ctx' | 'config') {
    super(
      'MG_PLUGIN_NOT_READY',
      `插件 ${pluginId} 的 ${member} 尚未注入：宿主在 onLoad 之前设置它，构造函数里不能读取（the host sets ${member} before onLoad; do not read it in the constructor）`,
    );
    this.pluginId = pluginId;
    this.member = member;
  }
}
