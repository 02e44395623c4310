import type { Logger } from '../../kernel/logger/logger.js';
import type { Clock } from '../../kernel/time/clock.js';
import { type InboundGate, PASS } from '../inbound-gates.js';
import type { Message } from '../message.js';
import type { ChatSilence } from './chat-silence.js';

/** Where the silence gate runs among the inbound gates: after guests (100), before commands (200). */
export const SILENCE_GATE_ORDER = 150;

export interface SilenceGateOptions {
  /** Why the message's chat is silent at `atMs` (a mute of its stream, or the quiet hours of the rule its chat matches). */
  silenceOf(message: Message, atMs: number): ChatSilence | undefined;
  /** True for a message that goes on although the chat is silent: an owner's command. */
  letThrough(message: Message): boolean;
  clock: Clock;
  logger: Logger;
}

function reasonOf(silence: ChatSilence): string {
  return silence.kind === 'muted' ? `the chat is muted until ${new Date(silence.until).toISOString()}` : `quiet hours (rule ${silence.rule})`;
}

/**
 * The silence gate: while a chat is muted (`/mute`) or in the quiet hours of its rule, every
 * message is stored as read and never answered, except an owner's command, which goes on to
 * the commands gate. Each message taken gets one debug line (the ingress's); the start of a
 * chat's quiet hours gets one info line (a mute logs its own when it is set).
 */
export function createSilenceGate(options: SilenceGateOptions): InboundGate & { readonly tracked: () => number } {
  const { clock, logger } = options;
  // The rule whose quiet hours each stream is in, as last seen: one info line per stretch.
  const inQuietHours = new Map<string, string>();
  const check = (message: Message) => {
    const silence = options.silenceOf(message, clock.now());
    if (silence?.kind !== 'quiet_hours') inQuietHours.delete(message.streamId);
    if (silence === undefined) return PASS;
    if (silence.kind === 'quiet_hours' && inQuietHours.get(message.streamId) !== silence.rule) {
      inQuietHours.set(message.streamId, silence.rule);
      logger.info({ stream_id: message.streamId, rule: silence.rule }, `chat ${message.streamId} is in the quiet hours of rule ${silence.rule}: its messages are stored, not answered (owners' commands still run)`);
    }
    if (options.letThrough(message)) return PASS;
    return { pass: false as const, reason: reasonOf(silence) };
  };
  return { name: 'silence', order: SILENCE_GATE_ORDER, check, tracked: () => inQuietHours.size };
}
