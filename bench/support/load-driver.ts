import { WebSocketServer } from 'ws';
import { freePort } from '../../test/support/free-port.js';
import type { OneBotPeer, PeerActionRequest } from '../../test/support/onebot-peer.js';
import { answerText } from './answer-text.js';

// The closed-loop OneBot load driver of bench/load.bench.ts and bench/peers.bench.ts: over one
// peer connection, C users talk at once, each sending its next message only once the previous
// one was answered; every answer is matched to the message it quotes, so doubles, misses and
// strays are counted. The answer expected is moonglass's demo model's: `（演示模型）收到：` and
// the message text.

export const DEMO_PREFIX = '（演示模型）收到：';
/** Message ids the users' messages carry: above the peer's own counter (which numbers the bot's sends). */
const MESSAGE_ID_BASE = 100_000_000;
/** How long a settled run keeps listening for a late second answer. */
const SETTLE_MS = 2_000;

export interface LoadOptions {
  streams: number;
  messagesPerStream: number;
  /**
   * Which wave of messages this is (default 0): the same users send other texts with other
   * message ids in each wave, so a warm-up wave (1) and the measured one (0) never answer for
   * each other.
   */
  wave?: number;
}

/** Connection drops during the load, and how users repeat what the drops may have lost. */
export interface FaultPlan {
  /** Drop the peer's connection when this many messages have been answered (one drop each). */
  dropAtAnswers: readonly number[];
  /** How long a user waits before repeating a message (after a refused push, or after the reconnect). */
  repeatAfterMs: number;
  /** A message still unanswered this long after its last push is pushed again (a repeat lost in a later drop). */
  repeatStalledAfterMs: number;
}

export interface TurnResults {
  /** From a message's first push to its first answer. */
  latenciesMs: number[];
  /** From the first push to the last message's first answer (the settle time after it not included). */
  wallMs: number;
  /** How many answers quoted each message text. */
  answersPerMessage: Map<string, number>;
  /** Answers that quoted no message that was sent. */
  strayAnswers: number;
  drops: number;
  /** Repeated pushes: after a push refused while disconnected, after a drop, after a stall. */
  repeats: { refused: number; afterDrop: number; stalled: number };
}

export interface ConverseHooks {
  /** Called once, when the last message has had its first answer (before the settle time). */
  onAllAnswered?: () => void;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value at percentile `p` (0–100) of ascending `sorted`. */
export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarizeLatencies(latenciesMs: readonly number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1)! };
}

export function describeLatency(sorted: readonly number[]): string {
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

/** What a run's answers tell about delivery: each message answered exactly once, none missing, no strays. */
export interface AnswerCheck {
  answered: number;
  answeredTwice: number;
  strays: number;
  /** True when every one of `total` messages was answered exactly once and no answer quoted something unsent. */
  passed: boolean;
}

export function checkAnswers(run: TurnResults, total: number): AnswerCheck {
  const answeredTwice = [...run.answersPerMessage.values()].filter((count) => count > 1).length;
  const answered = run.answersPerMessage.size;
  return { answered, answeredTwice, strays: run.strayAnswers, passed: answered === total && answeredTwice === 0 && run.strayAnswers === 0 };
}

/**
 * Runs the closed-loop conversations over `peer`: user n sends message 0, and each answer to
 * its newest message sends the next, until every user has had `messagesPerStream` answers.
 * With `fault`, the peer drops its connection at the planned points and users repeat what
 * may have been lost (same message id) until it is answered.
 */
export function converse(peer: OneBotPeer, options: LoadOptions, timeoutMs: number, fault?: FaultPlan, hooks: ConverseHooks = {}): Promise<TurnResults> {
  const { streams, messagesPerStream } = options;
  const wave = options.wave ?? 0;
  const wavePrefix = wave === 0 ? '' : `w${wave}-`;
  const text = (stream: number, index: number) => `${wavePrefix}u${stream}-m${index}`;
  const total = streams * messagesPerStream;
  const firstPushAt = new Map<string, number>();
  const lastPushAt = new Array<number>(streams).fill(0);
  const answersPerMessage = new Map<string, number>();
  const latenciesMs: number[] = [];
  /** The index of each user's current (newest) message. */
  const current = new Array<number>(streams).fill(-1);
  const repeats = { refused: 0, afterDrop: 0, stalled: 0 };
  const drops = [...(fault?.dropAtAnswers ?? [])];
  let dropCount = 0;
  let strayAnswers = 0;
  let finished = 0;
  let done = false;
  const started = performance.now();
  const waiting = (stream: number) => !answersPerMessage.has(text(stream, current[stream]!));

  /** Pushes the user's current message; under a fault plan a refused push is repeated later. */
  const push = (stream: number) => {
    const index = current[stream]!;
    lastPushAt[stream] = performance.now();
    try {
      peer.pushPrivateMessage({ userId: 100_000 + stream, nickname: `用户${stream}`, message: text(stream, index), messageId: MESSAGE_ID_BASE + wave * total + stream * messagesPerStream + index });
    } catch (error) {
      if (fault === undefined) throw error;
      setTimeout(() => {
        if (done || current[stream] !== index || !waiting(stream)) return;
        repeats.refused += 1;
        push(stream);
      }, fault.repeatAfterMs);
    }
  };
  const send = (stream: number) => {
    current[stream]! += 1;
    firstPushAt.set(text(stream, current[stream]!), performance.now());
    push(stream);
  };
  /** Drops the connection; once the peer is back, repeats every message the drop left unanswered. */
  const drop = async (plan: FaultPlan) => {
    const inDoubt = [...Array(streams).keys()].filter((stream) => current[stream]! >= 0 && waiting(stream)).map((stream) => [stream, current[stream]!] as const);
    const reconnected = peer.connectionCount + 1;
    peer.drop();
    dropCount += 1;
    await peer.waitForConnection(reconnected);
    await delay(plan.repeatAfterMs);
    for (const [stream, index] of inDoubt) {
      if (done || current[stream] !== index || !waiting(stream)) continue;
      repeats.afterDrop += 1;
      push(stream);
    }
  };

  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      done = true;
      clearTimeout(timer);
      clearInterval(watchdog);
      stop();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`load: ${finished} of ${streams} conversations finished within ${timeoutMs} ms`)), timeoutMs);
    const watchdog =
      fault === undefined
        ? undefined
        : setInterval(() => {
            const now = performance.now();
            for (let stream = 0; stream < streams; stream += 1) {
              if (current[stream]! < 0 || !waiting(stream) || now - lastPushAt[stream]! < fault.repeatStalledAfterMs || !peer.connected) continue;
              repeats.stalled += 1;
              push(stream);
            }
          }, 1_000);
    const stop = peer.onAction((request: PeerActionRequest) => {
      if (request.action !== 'send_private_msg' && request.action !== 'send_msg') return;
      const content = answerText(request.params['message']);
      const quoted = content.startsWith(DEMO_PREFIX) ? content.slice(DEMO_PREFIX.length) : content;
      const at = firstPushAt.get(quoted);
      if (at === undefined) {
        strayAnswers += 1;
        return;
      }
      const count = (answersPerMessage.get(quoted) ?? 0) + 1;
      answersPerMessage.set(quoted, count);
      if (count > 1 || done) return; // a second answer: counted, and nothing more happens
      latenciesMs.push(performance.now() - at);
      if (fault !== undefined && drops.length > 0 && answersPerMessage.size >= drops[0]!) {
        drops.shift();
        drop(fault).catch(fail);
      }
      const stream = Number(request.params['user_id']) - 100_000;
      if (quoted !== text(stream, current[stream]!)) return; // an old one
      if (current[stream]! + 1 < messagesPerStream) send(stream);
      else if (++finished === streams) {
        const wallMs = performance.now() - started;
        done = true;
        clearTimeout(timer);
        clearInterval(watchdog);
        hooks.onAllAnswered?.();
        // Keep listening a little: a second answer to any message still counts against the run.
        setTimeout(() => {
          stop();
          resolve({ latenciesMs, wallMs, answersPerMessage, strayAnswers, drops: dropCount, repeats });
        }, SETTLE_MS);
      }
    });
    if (total === 0) fail(new Error('load: nothing to send'));
    for (let stream = 0; stream < streams; stream += 1) send(stream);
  });
}

/**
 * The transport floor: a WebSocket endpoint on 127.0.0.1 that answers every private message
 * event at once with send_private_msg quoting it, as the demo model does (bench/support/peers/
 * bare-ws.mjs is the same endpoint as a process of its own). Resolves to its URL and its close.
 */
export async function startBareEndpoint(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const server = new WebSocketServer({ host: '127.0.0.1', port });
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as { post_type?: string; user_id?: number; message?: unknown };
      if (event.post_type !== 'message') return;
      socket.send(JSON.stringify({ action: 'send_private_msg', params: { user_id: event.user_id, message: [{ type: 'text', data: { text: DEMO_PREFIX + answerText(event.message) } }] }, echo: 'b' }));
    });
  });
  return { url: `ws://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
