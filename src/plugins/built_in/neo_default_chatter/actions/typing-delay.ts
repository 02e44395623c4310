import type { ChatStream } from 'moonglass';

/**
 * How long a reply still waits before it goes out: its typing time (`typingMs`) counted from
 * `since`, the later of the arrival of the message being answered and the stream's previous
 * send, so the time the model took to answer is part of the typing, not added to it. Never
 * below 0, never above `typingMs` (a platform clock ahead of the host's cannot lengthen it).
 */
export function typingDelayLeft(typingMs: number, nowMs: number, since: readonly (number | undefined)[]): number {
  const anchors = since.filter((value): value is number => value !== undefined && Number.isFinite(value));
  if (anchors.length === 0) return typingMs;
  return Math.min(typingMs, Math.max(0, typingMs - (nowMs - Math.max(...anchors))));
}

/**
 * When the message being answered arrived (epoch ms): the newest inbound message the chatter
 * has read (NDFC moves a turn's messages to history once the model has answered), else the
 * oldest still unread; `undefined` when the stream has no inbound message.
 */
export function answeredMessageArrival(stream: ChatStream): number | undefined {
  const read = stream.history.findLast((message) => message.direction === 'inbound');
  const message = read ?? stream.unreads.find((message) => message.direction === 'inbound');
  return message === undefined ? undefined : message.time * 1000;
}
