import type { ActiveChatRule } from '../rules/active-chat-rule.js';
import type { ChatSilence } from './chat-silence.js';
import type { ChatMutes } from './chat-mutes.js';

export interface SilenceSources {
  mutes: ChatMutes;
  /** The `bot.toml [[rules]]` entry that applies (the runtime's `ruleFor`). */
  ruleFor(streamId: string, atMs: number): ActiveChatRule | undefined;
}

/** Why the stream is silent at `atMs`: an owner's mute first, then the applying rule's quiet hours; undefined: it is answered. */
export function silenceOf(sources: SilenceSources, streamId: string, atMs: number): ChatSilence | undefined {
  const mute = sources.mutes.activeMute(streamId, atMs);
  if (mute !== undefined) return { kind: 'muted', until: mute.untilMs, by: mute.mutedBy };
  const rule = sources.ruleFor(streamId, atMs);
  return rule?.quiet === true ? { kind: 'quiet_hours', rule: rule.name } : undefined;
}
