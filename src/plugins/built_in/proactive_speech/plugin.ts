// Proactive speech (issue 18 item 5): a group quiet long enough, inside the allowed hours, gets
// a `proactive` resume of NDFC's conversation there; the model decides whether to speak.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { HourRangeSchema, PluginConfig, ToolPlugin, WaitResumeEvent, withinHours, type ChatRuntime, type StreamSummary } from 'moonglass';

export const ProactiveSpeechConfig = PluginConfig.extend({
  enabled: z.boolean().default(false).describe('是否启用主动发言；默认关闭，改成 true 后重启生效'),
  quiet_minutes: z.number().int().positive().default(120).describe('群里至少安静多少分钟（收到和发出的消息都算活动）才会主动发言'),
  hours: z
    .array(HourRangeSchema)
    .default(['09:00-22:00'])
    .describe('允许主动发言的时段列表，"HH:MM-HH:MM"，按 bot.toml [bot] timezone 的本地时间'),
  cooldown_minutes: z.number().int().nonnegative().default(240).describe('同一个群两次主动发言之间至少隔多少分钟；重启后仍然有效'),
  check_every_seconds: z.number().int().min(10).default(300).describe('每隔多少秒检查一次各个群'),
  groups: z.array(z.string().min(1)).default([]).describe('只在这些群号里主动发言；留空表示所有群'),
  task_name: z.string().min(1).default('actor').describe('主动发言用的模型任务名（models.toml [tasks.<name>]），它的每日预算用完就不发言'),
});

export type ProactiveSpeechConfig = z.output<typeof ProactiveSpeechConfig>;

/** NDFC's `chat_core` service, as far as this plugin uses it. */
interface ChatCore {
  resume(streamId: string, event: WaitResumeEvent): void;
}

const CHAT_CORE = 'neo_default_chatter:service:chat_core';
const STATE_FILE = 'last-speech.json';

export class ProactiveSpeechPlugin extends ToolPlugin<ProactiveSpeechConfig> {
  static override configModel = ProactiveSpeechConfig;

  /** Per stream: epoch ms of the last proactive resume (kept in the plugin's data folder). */
  #lastSpeech = new Map<string, number>();

  override async onLoad(): Promise<void> {
    // With enabled = false (the default) the host does not load the plugin at all.
    const config = this.config;
    if (this.ctx.chat === undefined) {
      this.ctx.logger.warn('proactive speech is on, but this host has no chat services; nothing to do');
      return;
    }
    this.#lastSpeech = this.#readState();
    const chat = this.ctx.chat;
    this.ctx.schedule({ everySeconds: config.check_every_seconds }, () => this.#check(chat), { name: 'proactive_check', missed: 'skip' });
  }

  #check(chat: ChatRuntime): void {
    const config = this.config;
    const logger = this.ctx.logger;
    const now = chat.clock.now();
    const timeZone = chat.bot.bot.timezone;
    if (!withinHours(config.hours, now, timeZone)) {
      logger.debug({ hours: config.hours, time_zone: timeZone || 'local' }, 'proactive speech skipped: outside its hours');
      return;
    }
    const left = chat.budgetLeft(config.task_name);
    if (left !== undefined && left <= 0) {
      logger.debug({ task: config.task_name }, 'proactive speech skipped: the task’s daily token budget is spent');
      return;
    }
    const quietMs = config.quiet_minutes * 60_000;
    for (const stream of chat.streams.listStreams({ chatType: 'group', limit: 1000 })) {
      const reason = this.#skipReason(chat, stream, now, quietMs);
      if (reason !== undefined) {
        logger.debug({ stream_id: stream.streamId, group_id: stream.groupId, reason }, `proactive speech skipped: ${reason}`);
        continue;
      }
      this.#speak(chat, stream, now);
    }
  }

  #skipReason(chat: ChatRuntime, stream: StreamSummary, now: number, quietMs: number): string | undefined {
    const config = this.config;
    if (config.groups.length > 0 && (stream.groupId === null || !config.groups.includes(stream.groupId))) return 'not in groups';
    const quietFor = now - stream.lastActiveAt;
    if (quietFor < quietMs) return `active ${Math.floor(quietFor / 60_000)} min ago (quiet_minutes ${config.quiet_minutes})`;
    const last = this.#lastSpeech.get(stream.streamId);
    if (last !== undefined && now - last < config.cooldown_minutes * 60_000) return `cooldown: spoke ${Math.floor((now - last) / 60_000)} min ago`;
    const silence = chat.silenceOf(stream.streamId, now);
    if (silence !== undefined) return silence.kind === 'muted' ? 'the chat is muted' : `quiet hours of rule ${silence.rule}`;
    if (chat.ruleFor(stream.streamId, now)?.pluginsOff.includes(this.id) === true) return 'a rule switches the plugin off here';
    return undefined;
  }

  #speak(chat: ChatRuntime, stream: StreamSummary, now: number): void {
    const minutes = Math.floor((now - stream.lastActiveAt) / 60_000);
    const event = new WaitResumeEvent('proactive', {
      extra: { prompt: `群里已经安静了 ${minutes} 分钟，你可以主动说点什么，也可以不说。`, quiet_minutes: minutes },
    });
    const core = chat.registry.get<ChatCore>(CHAT_CORE);
    try {
      // NDFC keeps the event until its conversation takes it (a stream with no run starts one that
      // would not see it otherwise); without NDFC the host's loop gets it as it is.
      if (core !== undefined) core.resume(stream.streamId, event);
      else chat.resume(stream.streamId, event);
    } catch (error) {
      this.ctx.logger.warn({ stream_id: stream.streamId, error: error instanceof Error ? error.message : String(error) }, 'proactive speech could not resume the conversation');
      return;
    }
    // The cooldown counts from the attempt: the model may choose not to speak, and is not asked again sooner.
    this.#lastSpeech.set(stream.streamId, now);
    this.#writeState();
    this.ctx.logger.info({ stream_id: stream.streamId, group_id: stream.groupId, quiet_minutes: minutes }, `proactive speech: resumed the quiet group ${stream.groupId ?? stream.streamId}`);
  }

  #readState(): Map<string, number> {
    const file = join(this.ctx.paths.dataDir, STATE_FILE);
    if (!existsSync(file)) return new Map();
    try {
      const parsed = z.record(z.string(), z.number()).parse(JSON.parse(readFileSync(file, 'utf8')));
      return new Map(Object.entries(parsed));
    } catch (error) {
      this.ctx.logger.warn({ file, error: error instanceof Error ? error.message : String(error) }, 'proactive speech: the cooldown file is unreadable; starting without cooldowns');
      return new Map();
    }
  }

  #writeState(): void {
    const file = join(this.ctx.paths.dataDir, STATE_FILE);
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(this.#lastSpeech)));
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      this.ctx.logger.warn({ file, error: error instanceof Error ? error.message : String(error) }, 'proactive speech: could not keep the cooldowns');
    }
  }
}
