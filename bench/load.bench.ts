import { WebSocketServer } from 'ws';
import { freePort } from '../test/support/free-port.js';
import { OneBotPeer, type PeerActionRequest } from '../test/support/onebot-peer.js';
import { answerText } from './support/answer-text.js';
import { BenchBot, type StoredCounts } from './support/bench-bot.js';
import { processMemoryMiB } from './support/process-memory.js';

// Load: 1,000 private conversations x 20 messages through the real bot (host process and
// OneBot v11 adapter process, as `npm start` runs them) and a OneBot peer on loopback that
// connects like NapCat. The model is the instant offline demo model, which answers each
// message by quoting it; typing delay and message buffer are off, so what is measured is the
// bot's own work. Every user waits for the answer before sending the next message, as people
// do; all 1,000 talk at once.
//
// Baseline, in the same run: the same peer and the same 20,000 turns against a bare WebSocket
// endpoint that answers each message event at once with send_private_msg (the transport floor).
//
// Fault run, in the same run: the bot again, and the peer drops its connection twice during
// the load (at 1/3 and 2/3 of the answers) and reconnects, as NapCat does. Replies the drop
// left in doubt are looked up by the host in the peer's history; replies due while it is
// away wait in the outbox. A user's message the peer could not push (disconnected) or that
// the drop may have lost is repeated with the same message id after a short wait, as a
// platform redelivers; the host dedupes by message id. The checks are the same as for the
// clean run: stored once, answered once, none missing, no strays.

const DEMO_PREFIX = '（演示模型）收到：';
/** Message ids the users' messages carry: above the peer's own counter (which numbers the bot's sends). */
const MESSAGE_ID_BASE = 100_000_000;
/** How long a settled run keeps listening for a late second answer. */
const SETTLE_MS = 2_000;

export interface LoadOptions {
  streams: number;
  messagesPerStream: number;
}

/** Connection drops during the load, and how users repeat what the drops may have lost. */
interface FaultPlan {
  /** Drop the peer's connection when this many messages have been answered (one drop each). */
  dropAtAnswers: readonly number[];
  /** How long a user waits before repeating a message (after a refused push, or after the reconnect). */
  repeatAfterMs: number;
  /** A message still unanswered this long after its last push is pushed again (a repeat lost in a later drop). */
  repeatStalledAfterMs: number;
}

interface TurnResults {
  /** From a message's first push to its first answer. */
  latenciesMs: number[];
  wallMs: number;
  /** How many answers quoted each message text. */
  answersPerMessage: Map<string, number>;
  /** Answers that quoted no message that was sent. */
  strayAnswers: number;
  drops: number;
  /** Repeated pushes: after a push refused while disconnected, after a drop, after a stall. */
  repeats: { refused: number; afterDrop: number; stalled: number };
}

const text = (stream: number, index: number) => `u${stream}-m${index}`;
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the closed-loop conversations over `peer`: user n sends message 0, and each answer to
 * its newest message sends the next, until every user has had `messagesPerStream` answers.
 * With `fault`, the peer drops its connection at the planned points and users repeat what
 * may have been lost (same message id) until it is answered.
 */
function converse(peer: OneBotPeer, options: LoadOptions, timeoutMs: number, fault?: FaultPlan): Promise<TurnResults> {
  const { streams, messagesPerStream } = options;
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
      peer.pushPrivateMessage({ userId: 100_000 + stream, nickname: `用户${stream}`, message: text(stream, index), messageId: MESSAGE_ID_BASE + stream * messagesPerStream + index });
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

/** The transport floor: a WebSocket endpoint that answers every private message at once. */
async function baseline(options: LoadOptions): Promise<TurnResults> {
  const port = await freePort();
  const server = new WebSocketServer({ host: '127.0.0.1', port });
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as { post_type?: string; user_id?: number; message?: unknown };
      if (event.post_type !== 'message') return;
      socket.send(JSON.stringify({ action: 'send_private_msg', params: { user_id: event.user_id, message: [{ type: 'text', data: { text: DEMO_PREFIX + answerText(event.message) } }] }, echo: 'b' }));
    });
  });
  const peer = new OneBotPeer({ waitTimeoutMs: 30_000 });
  try {
    peer.connectReverse({ url: `ws://127.0.0.1:${port}/` });
    await peer.waitForConnection();
    return await converse(peer, options, 600_000);
  } finally {
    await peer.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

interface BotRun extends TurnResults {
  hostPeakMiB: number | undefined;
  adapterPeakMiB: number | undefined;
  stored: StoredCounts;
}

async function throughTheBot(options: LoadOptions, fault?: FaultPlan): Promise<BotRun> {
  const bot = await BenchBot.start({ prefix: 'load-' });
  try {
    console.error('load: the bot is ready and the peer connected');
    const turns = await converse(bot.peer, options, 1_800_000, fault);
    const hostPeakMiB = processMemoryMiB(bot.hostPid, 'VmHWM');
    const adapterPid = bot.adapterPid();
    const adapterPeakMiB = adapterPid === undefined ? undefined : processMemoryMiB(adapterPid, 'VmHWM');
    await bot.stop();
    return { ...turns, hostPeakMiB, adapterPeakMiB, stored: bot.storedCounts() };
  } finally {
    await bot.dispose();
  }
}

function describeLatency(sorted: readonly number[]): string {
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

/** Prints a bot run's delivery counts; true when every message was stored once and answered once, with no strays. */
function checkDelivery(run: BotRun, total: number): boolean {
  const answeredTwice = [...run.answersPerMessage.values()].filter((count) => count > 1).length;
  console.log(`    stored inbound ${run.stored.inbound} of ${total} (stored twice: ${run.stored.inboundTwice}); outbound ${run.stored.outbound}`);
  console.log(`    answered ${run.answersPerMessage.size} of ${total} messages; answered more than once: ${answeredTwice}; answers quoting nothing sent: ${run.strayAnswers}`);
  return run.stored.inbound === total && run.stored.inboundTwice === 0 && answeredTwice === 0 && run.strayAnswers === 0 && run.answersPerMessage.size === total;
}

/**
 * Prints reply latency (p50, p99), throughput, peak memory and the delivery checks of the
 * clean and the fault run; true when both runs stored every message exactly once and
 * answered it exactly once (at most once is the rule; a closed loop with an answering model
 * must also answer each).
 */
export async function benchLoad(options: LoadOptions = { streams: 1_000, messagesPerStream: 20 }): Promise<boolean> {
  const total = options.streams * options.messagesPerStream;
  const fault: FaultPlan = { dropAtAnswers: [Math.round(total / 3), Math.round((2 * total) / 3)], repeatAfterMs: 500, repeatStalledAfterMs: 10_000 };
  console.error(`load: baseline (${total} turns) ...`);
  const floor = await baseline(options);
  console.error('load: through the bot ...');
  const bot = await throughTheBot(options);
  console.error('load: through the bot, the peer dropping its connection twice ...');
  const faulty = await throughTheBot(options, fault);
  const floorSorted = [...floor.latenciesMs].sort((a, b) => a - b);
  const botSorted = [...bot.latenciesMs].sort((a, b) => a - b);
  const faultySorted = [...faulty.latenciesMs].sort((a, b) => a - b);
  const throughput = (run: TurnResults) => `${((total / run.wallMs) * 1000).toFixed(0)} turns/s`;
  console.log(`\nLoad: ${options.streams} private conversations x ${options.messagesPerStream} messages (${total} turns) through OneBot v11 on loopback, instant demo model`);
  console.log(`  bare WebSocket endpoint (baseline)   ${describeLatency(floorSorted)}, ${throughput(floor)}`);
  console.log(`  moonglass (host + adapter process)   ${describeLatency(botSorted)}, ${throughput(bot)}`);
  console.log(`  ratio to the baseline                p50 ${(percentile(botSorted, 50) / percentile(floorSorted, 50)).toFixed(1)}x, p99 ${(percentile(botSorted, 99) / percentile(floorSorted, 99)).toFixed(1)}x`);
  console.log(`  peak memory (VmHWM)                  host ${bot.hostPeakMiB?.toFixed(0) ?? '?'} MiB, adapter ${bot.adapterPeakMiB?.toFixed(0) ?? '?'} MiB`);
  const cleanMet = checkDelivery(bot, total);
  console.log(`  goal: every message stored exactly once and answered at most once -> ${cleanMet ? 'MET' : 'MISSED'}`);
  console.log(`  fault run: the peer drops its connection at ${fault.dropAtAnswers.join(' and ')} answers, users repeat what may be lost (same message id)`);
  console.log(`  moonglass, ${faulty.drops} drops                   ${describeLatency(faultySorted)}, ${throughput(faulty)}`);
  console.log(`  ratio to the clean run               p50 ${(percentile(faultySorted, 50) / percentile(botSorted, 50)).toFixed(1)}x, p99 ${(percentile(faultySorted, 99) / percentile(botSorted, 99)).toFixed(1)}x`);
  const { refused, afterDrop, stalled } = faulty.repeats;
  console.log(`    repeated pushes ${refused + afterDrop + stalled} (refused while disconnected ${refused}, after a drop ${afterDrop}, stalled ${stalled})`);
  const faultMet = faulty.drops === fault.dropAtAnswers.length && checkDelivery(faulty, total);
  console.log(`  goal: with ${fault.dropAtAnswers.length} drops, every message stored exactly once and answered exactly once (delivery checks) -> ${faultMet ? 'MET' : 'MISSED'}`);
  return cleanMet && faultMet;
}

// `node … bench/load.bench.ts [streams] [messages]` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [streams, messagesPerStream] = process.argv.slice(2).map(Number);
  const met = await benchLoad({ streams: streams || 1_000, messagesPerStream: messagesPerStream || 20 });
  process.exitCode = met ? 0 : 1;
}
