import type { Message } from '../chat/message.js';
import type { ChatSilence } from '../chat/silence/chat-silence.js';
import type { SendOutcome } from '../chat/stream-api.js';
import type { ModelsConfig } from '../llm/models-config.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';
import type { PluginContext } from '../plugin-system/plugin-context.js';
import type { PermissionLevel } from './permission-level.js';

/** What a command gets besides its input. */
export interface CommandContext {
  /** The conversation the command came from. */
  readonly streamId: string;
  /** The inbound message (stored already). */
  readonly message: Message;
  /** The sender's level (see `levelOf`). */
  readonly level: PermissionLevel;
  /** The prefix the sender used (`/`). */
  readonly prefix: string;
  /** The name as typed: the command's name or one of its aliases. */
  readonly invokedAs: string;
  /** Sends `text` to the conversation through the outbox (a reply the adapter could not take yet waits there). */
  reply(text: string): Promise<SendOutcome>;
  /** The command's plugin's `ctx`. */
  readonly ctx: PluginContext;
  /**
   * The host's operator controls (plugins, models, uptime); given only to commands declared
   * `permission: 'owner'`, so only the bot's owners can reach them. Undefined for others.
   */
  readonly operator: CommandOperator | undefined;
}

/** What the host lets an owner's command steer (`/status`, `/plugins`, `/plugin reload`, `/model`). */
export interface CommandOperator {
  /** Epoch milliseconds when the host started. */
  readonly startedAt: number;
  /** `models.toml` as loaded: the model per task. */
  readonly models: ModelsConfig;
  /** Messages received and sent since local midnight. */
  messagesToday(): {
    /** Messages received. */
    inbound: number;
    /** Messages the bot sent. */
    outbound: number;
  };
  /** Every plugin folder seen and what became of it. */
  plugins(): readonly PluginStatus[];
  /** Unloads and loads the plugin again from its folder. */
  reloadPlugin(id: string): Promise<PluginStatus>;
  /** Writes `enabled = …` into the plugin's config.toml and reloads it (as the web console does). */
  setPluginEnabled(id: string, enabled: boolean): Promise<PluginStatus>;
  /** `bot.toml [bot] timezone`, or the machine's zone when that is empty: where times shown to the owner are local. */
  readonly timeZone: string;
  /**
   * Mutes the conversation until `untilMs` (epoch ms; persisted, so it outlives a restart):
   * its messages are stored and not answered, except owners' commands. Replaces a mute it had.
   * A reply already being written when the mute comes may still go out.
   */
  mute(streamId: string, untilMs: number, by: string | null): void;
  /** Ends the conversation's mute; false when it was not muted. */
  unmute(streamId: string): boolean;
  /** Why the conversation is silent now (muted, or a rule's quiet hours); undefined: it is answered. */
  silenceOf(streamId: string): ChatSilence | undefined;
  /** The bot's accounts on the platform as the adapter sees them; undefined: the host runs no adapter. */
  accounts(): readonly CommandAccount[] | undefined;
}

/** One bot account, as `/status` shows it. */
export interface CommandAccount {
  /** The platform's id of the account (OneBot: the QQ number); `'bot'` when the adapter has none. */
  readonly selfId: string;
  /** Whether the adapter has a live connection for it now. */
  readonly connected: boolean;
  /** The name it goes by (`bot.toml [accounts."<self id>"] nickname`, else `[bot] nickname`). */
  readonly nickname: string;
}

/** What `execute` may return: text is sent as the reply (as `context.reply` would). */
export type CommandResult = void | string | undefined;
