import type { Database } from '../storage/database.js';
import type { ChatRuleConfig } from '../chat/rules/chat-rules-config.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { TokensToday } from '../llm/budget/token-budgets.js';
import type { PluginManager } from '../plugin-system/plugin-manager.js';
import type { PhaseTracker } from './phase-tracker.js';
import type { PluginMarket } from './plugin-market.js';
import type { SandboxChannel } from './sandbox-channel.js';
import type { TraceRecorder } from './trace-recorder.js';

/** The adapter as the console shows it. */
export interface AdminAdapterStatus {
  name: string;
  state: string;
  connected: boolean;
  detail?: string;
  selfId?: string;
  restarts: number;
  /** Every bot account the adapter has seen since it started, connected or not; absent: it has no accounts. */
  accounts?: readonly AdminAccountStatus[];
}

/** One bot account's connection, as the adapter reports it. */
export interface AdminAccountStatus {
  selfId: string;
  connected: boolean;
  detail?: string;
}

/** The per-chat rules (`bot.toml [[rules]]`) as the Rules page shows and edits them. */
export interface AdminRulesView {
  /** The bot.toml they are read from and saved to. */
  file: string;
  /** The time zone their hours are in (`bot.toml [bot] timezone`, resolved). */
  timeZone: string;
  /** The rules in use, validated. */
  list(): readonly ChatRuleConfig[];
  /** Puts validated rules in use: the next message is matched against them. */
  replace(rules: readonly ChatRuleConfig[]): void;
}

/** What the web console reads from the running host (the app builds it; admin never imports app). */
export interface AdminHostView {
  version: string;
  /** Epoch milliseconds. */
  startedAt: number;
  configDir: string;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  plugins: PluginManager;
  bus: EventBus;
  database: Database;
  /** One line: which model answers (saying so when it is the offline demo model). */
  modelDescription(): string;
  /** `bot.toml [bot] timezone` (an IANA name; `''`: the machine's): the day "today" counts are of. */
  timeZone?: string;
  adapterStatus(): AdminAdapterStatus | undefined;
  /** The name the bot goes by on an account (its persona's nickname, else the bot's). */
  accountNickname(selfId: string): string;
  /** The stream loop's state for a stream (`idle`, `running`, `waiting` …), when it has a driver. */
  streamState(streamId: string): string | undefined;
  /** The conversation phase of each stream (NDFC's), as last seen on the bus. */
  phases: PhaseTracker;
  /** The browser chat of the sandbox page. */
  sandbox: SandboxChannel;
  /** Every conversation's recent turns: events, handlers, decisions, durations, model calls. */
  traces: TraceRecorder;
  /** Today's tokens per task with their daily budgets (models.toml), in the bot's time zone; absent: not shown. */
  tokensToday?(): TokensToday | undefined;
  /** The per-chat rules (the Rules page); absent: the page says the host has none. */
  rules?: AdminRulesView;
  /** Search the registry for plugin packages and install, update or remove them (the Plugins → Market page); absent: the page says so. */
  market?: PluginMarket;
}
