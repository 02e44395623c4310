import { OneBotPeer } from '../test/support/onebot-peer.js';
import { BenchBot, type StoredCounts } from './support/bench-bot.js';
import { checkAnswers, converse, describeLatency, type FaultPlan, type LoadOptions, percentile, startBareEndpoint, type TurnResults } from './support/load-driver.js';
import { processMemoryMiB } from './support/process-memory.js';
import { judgeCondition } from './support/goal.js';

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

export type { LoadOptions } from './support/load-driver.js';

/** The transport floor: a WebSocket endpoint that answers every private message at once. */
async function baseline(options: LoadOptions): Promise<TurnResults> {
  const endpoint = await startBareEndpoint();
  const peer = new OneBotPeer({ waitTimeoutMs: 30_000 });
  try {
    peer.connectReverse({ url: endpoint.url });
    await peer.waitForConnection();
    return await converse(peer, options, 600_000);
  } finally {
    await peer.close();
    await endpoint.close();
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

/** Prints a bot run's delivery counts; true when every message was stored once and answered once, with no strays. */
function checkDelivery(run: BotRun, total: number): boolean {
  const answers = checkAnswers(run, total);
  console.log(`    stored inbound ${run.stored.inbound} of ${total} (stored twice: ${run.stored.inboundTwice}); outbound ${run.stored.outbound}`);
  console.log(`    answered ${answers.answered} of ${total} messages; answered more than once: ${answers.answeredTwice}; answers quoting nothing sent: ${answers.strays}`);
  return run.stored.inbound === total && run.stored.inboundTwice === 0 && answers.passed;
}

/**
 * Prints reply latency (p50, p95, p99), throughput, peak memory and the delivery checks of the
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
  judgeCondition('load: every message stored exactly once and answered at most once', cleanMet, `${total} messages`);
  console.log(`  fault run: the peer drops its connection at ${fault.dropAtAnswers.join(' and ')} answers, users repeat what may be lost (same message id)`);
  console.log(`  moonglass, ${faulty.drops} drops                   ${describeLatency(faultySorted)}, ${throughput(faulty)}`);
  console.log(`  ratio to the clean run               p50 ${(percentile(faultySorted, 50) / percentile(botSorted, 50)).toFixed(1)}x, p99 ${(percentile(faultySorted, 99) / percentile(botSorted, 99)).toFixed(1)}x`);
  const { refused, afterDrop, stalled } = faulty.repeats;
  console.log(`    repeated pushes ${refused + afterDrop + stalled} (refused while disconnected ${refused}, after a drop ${afterDrop}, stalled ${stalled})`);
  const faultMet = faulty.drops === fault.dropAtAnswers.length && checkDelivery(faulty, total);
  judgeCondition(`load: with ${fault.dropAtAnswers.length} drops, every message stored exactly once and answered exactly once`, faultMet, `${faulty.drops} drops seen, delivery checks`);
  return cleanMet && faultMet;
}

// `node … bench/load.bench.ts [streams] [messages]` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [streams, messagesPerStream] = process.argv.slice(2).map(Number);
  const met = await benchLoad({ streams: streams || 1_000, messagesPerStream: messagesPerStream || 20 });
  process.exitCode = met ? 0 : 1;
}
