import type { ChatRuntime } from '../chatter/chat-runtime.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { PluginMcpAccess } from '../mcp/mcp-types.js';
import type { PluginMediaAccess } from '../media/media-types.js';
import type { PluginPlatformAccess } from '../chat/platform-actions.js';
import type { PluginEffects } from './plugin-effects.js';
import type { PluginSchedulesFactory } from './schedule/plugin-schedules.js';
import type { PluginScheduleFunction } from './schedule/schedule-types.js';

/** Where a plugin lives on disk. */
export interface PluginPaths {
  /** The plugin's folder (its manifest and entry; also its config.toml when it is a folder of the bot's own). */
  readonly pluginDir: string;
  /**
   * The plugin's config file: `config.toml` in its folder for a folder plugin of the bot's,
   * `<config>/plugins/<id>.toml` for an installed package or a read-only folder. Pass it to
   * `savePluginConfig` to save settings from code.
   */
  readonly configFile: string;
  /** A folder of its own for data, created before onLoad: `<data>/plugins/<id>`. */
  readonly dataDir: string;
}

/** Facts about the host, copied for the plugin. */
export interface PluginHostFacts {
  /** The moonglass version the host runs. */
  readonly version: string;
  /** The host's absolute config folder. */
  readonly configDir: string;
  /** The host's absolute data folder (the plugin's own is `paths.dataDir`). */
  readonly dataDir: string;
}

/**
 * What the host gives a plugin (`this.ctx`), set before `onLoad`. Frozen: a plugin cannot
 * reach the host's internals through it.
 */
export interface PluginContext extends PluginEffects {
  /** Logs with `plugin: <id>` on every line. */
  readonly logger: Logger;
  /** The plugin's own folder and data folder. */
  readonly paths: PluginPaths;
  /** Version and folders of the host. */
  readonly host: PluginHostFacts;
  /** The host's chat services (streams, models, prompts, tools); absent in a host without chat. */
  readonly chat: ChatRuntime | undefined;
  /** The MCP tools the bot owner configured (`config/mcp.toml`), for this plugin to call. */
  readonly mcp: PluginMcpAccess;
  /** The host's image and video description. */
  readonly media: PluginMediaAccess;
  /**
   * The platform's actions (OneBot v11: `set_friend_add_request`, `set_group_ban`,
   * `get_group_member_info` …), typed; pass `{account: payload.self_id}` to act as the
   * account an event came from.
   */
  readonly platform: PluginPlatformAccess;
  /**
   * Runs a job at the times of a 5-field cron expression (in `bot.toml [bot] timezone`) or
   * every `{ everySeconds }`, on the host's clock, until the plugin unloads or reloads. A
   * persisted job (the default; give it a `name`) runs a time missed while the host was down
   * once after the start, or skips it (`missed: 'skip'`).
   */
  readonly schedule: PluginScheduleFunction;
}

/** Builds the per-plugin facades of the host's services for `ctx` (each plugin gets its own). */
export interface PluginServiceFactories {
  mcp(pluginId: string): PluginMcpAccess;
  media(pluginId: string): PluginMediaAccess;
  /** `ctx.schedule` over the plugin's scope; absent: calls fail, saying no schedule service is wired. */
  schedule?: PluginSchedulesFactory;
}
