import type { PeerActionRequest } from '../test/support/onebot-peer.js';
import { answerText } from './support/answer-text.js';
import { BenchBot } from './support/bench-bot.js';
import { processMemoryMiB } from './support/process-memory.js';
import { type RssSample, rssTrend } from './support/rss-trend.js';
import { judgeCondition } from './support/goal.js';

// Soak: the real bot (host process and OneBot v11 adapter process, as `npm start` runs them)
// with a loopback peer pushing group messages that @-mention the bot at a steady rate
// (default 20 messages/s, spread round-robin over 50 groups, 20 members each) for 10
// minutes. NDFC answers every @ (probability_mention = 1.0) with the instant demo model.
// Every 30 s it prints the host's and the adapter's resident memory (VmRSS) and the answers
// so far; at the end it fails on an upward RSS trend (the rule is `rssTrend`'s) and checks
// that every message was stored once and answered exactly once.
//
// MOONGLASS_SOAK_SECONDS shortens the run (e.g. 60 for a quick check) and
// MOONGLASS_SOAK_SAMPLE_SECONDS the sampling interval.

const BOT_ID = '10000';
const MESSAGE_ID_BASE = 100_000_000;
/** After the last push: how long to wait for the remaining answers, then for any late second answer. */
const DRAIN_MS = 30_000;
const SETTLE_MS = 3_000;
/** The upward-trend margin: the last third may sit this much above the middle third. */
const TREND_MARGIN = { minimumMarginMiB: 15, marginFraction: 0.1 };

export interface SoakOptions {
  durationSeconds: number;
  sampleSeconds: number;
  messagesPerSecond: number;
  groups: number;
  membersPerGroup: number;
}

const text = (sequence: number) => `g${sequence}`;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchSoak(options: SoakOptions): Promise<boolean> {
  const { durationSeconds, sampleSeconds, messagesPerSecond, groups, membersPerGroup } = options;
  const bot = await BenchBot.start({ prefix: 'soak-', ndfcConfig: 'probability_mention = 1.0\n' });
  try {
    const peer = bot.peer;
    const answers = new Map<string, number>();
    let strayAnswers = 0;
    let refusedPushes = 0;
    let sent = 0;
    const stopListening = peer.onAction((request: PeerActionRequest) => {
      if (request.action !== 'send_group_msg' && request.action !== 'send_msg') return;
      const quoted = /\bg(\d+)\b/.exec(answerText(request.params['message']))?.[0];
      if (quoted === undefined || Number(quoted.slice(1)) >= sent) {
        strayAnswers += 1;
        return;
      }
      answers.set(quoted, (answers.get(quoted) ?? 0) + 1);
    });

    const host: RssSample[] = [];
    const adapter: RssSample[] = [];
    const started = performance.now();
    const elapsedSeconds = () => (performance.now() - started) / 1000;
    const sample = () => {
      const atSeconds = Math.round(elapsedSeconds());
      const hostMiB = processMemoryMiB(bot.hostPid, 'VmRSS');
      const adapterPid = bot.adapterPid();
      const adapterMiB = adapterPid === undefined ? undefined : processMemoryMiB(adapterPid, 'VmRSS');
      if (hostMiB !== undefined) host.push({ atSeconds, mib: hostMiB });
      if (adapterMiB !== undefined) adapter.push({ atSeconds, mib: adapterMiB });
      console.log(`  ${String(atSeconds).padStart(4)} s   host ${hostMiB?.toFixed(1) ?? '?'} MiB   adapter ${adapterMiB?.toFixed(1) ?? '?'} MiB   sent ${sent}   answered ${answers.size}`);
    };

    console.log(`\nSoak: ${messagesPerSecond} group @-messages/s over ${groups} groups for ${durationSeconds} s through OneBot v11 on loopback, instant demo model; RSS every ${sampleSeconds} s`);
    sample();
    const total = Math.round(durationSeconds * messagesPerSecond);
    // Pushes on a 50 ms tick, catching up to the schedule (a late tick sends what is due).
    const pusher = setInterval(() => {
      const due = Math.min(total, Math.floor(elapsedSeconds() * messagesPerSecond));
      while (sent < due) {
        const group = sent % groups;
        const member = Math.floor(sent / groups) % membersPerGroup;
        try {
          peer.pushGroupMessage({
            groupId: 500_000 + group,
            userId: 300_000 + group * membersPerGroup + member,
            nickname: `成员${group}-${member}`,
            messageId: MESSAGE_ID_BASE + sent,
            message: [{ type: 'at', data: { qq: BOT_ID } }, { type: 'text', data: { text: ` ${text(sent)}` } }],
          });
        } catch {
          refusedPushes += 1; // disconnected: the run has no faults, so this counts against it
        }
        sent += 1;
      }
    }, 50);
    const sampler = setInterval(sample, sampleSeconds * 1000);
    await delay(durationSeconds * 1000);
    clearInterval(sampler);
    if (host.at(-1)!.atSeconds < durationSeconds - 1) sample(); // the closing sample, unless the sampler just took it
    while (sent < total) await delay(50);
    clearInterval(pusher);

    const drainStarted = performance.now();
    while (answers.size < sent - refusedPushes && performance.now() - drainStarted < DRAIN_MS) await delay(100);
    await delay(SETTLE_MS);
    stopListening();
    await bot.stop();
    const stored = bot.storedCounts();

    const answeredTwice = [...answers.values()].filter((count) => count > 1).length;
    console.log(`  sent ${sent} (refused pushes ${refusedPushes}); stored inbound ${stored.inbound} (stored twice: ${stored.inboundTwice}); outbound ${stored.outbound}`);
    console.log(`  answered ${answers.size} of ${sent}; answered more than once: ${answeredTwice}; answers quoting nothing sent: ${strayAnswers}`);
    const delivered = refusedPushes === 0 && stored.inbound === sent && stored.inboundTwice === 0 && answers.size === sent && answeredTwice === 0 && strayAnswers === 0;
    judgeCondition('soak: every message stored once and answered exactly once', delivered, `${sent} sent, ${answers.size} answered`);

    let steady = true;
    for (const [name, samples] of [['host', host], ['adapter', adapter]] as const) {
      const trend = rssTrend(samples, durationSeconds, TREND_MARGIN);
      if (trend === undefined) {
        console.log(`  ${name} RSS: too few samples to judge a trend (run longer, or sample more often)`);
        continue;
      }
      const range = samples.map((entry) => entry.mib);
      console.log(
        `  ${name} RSS: ${Math.min(...range).toFixed(0)}-${Math.max(...range).toFixed(0)} MiB; median middle third ${trend.middleMedianMiB.toFixed(1)} MiB, last third ${trend.lastMedianMiB.toFixed(1)} MiB` +
          ` (${(trend.lastMedianMiB - trend.middleMedianMiB >= 0 ? '+' : '') + (trend.lastMedianMiB - trend.middleMedianMiB).toFixed(1)} MiB, margin ${trend.marginMiB.toFixed(1)}); slope after warm-up ${trend.slopeMiBPerMinute.toFixed(2)} MiB/min`,
      );
      judgeCondition(`soak: no upward trend in ${name} RSS`, !trend.upward, `slope after warm-up ${trend.slopeMiBPerMinute.toFixed(2)} MiB/min`);
      if (trend.upward) steady = false;
    }
    return delivered && steady;
  } finally {
    await bot.dispose();
  }
}

/** The soak's options from the environment (MOONGLASS_SOAK_SECONDS, MOONGLASS_SOAK_SAMPLE_SECONDS). */
export function soakOptionsFromEnvironment(): SoakOptions {
  const seconds = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!(value > 0)) throw new Error(`${name} must be a positive number of seconds, got "${process.env[name]}"`);
    return value;
  };
  return { durationSeconds: seconds('MOONGLASS_SOAK_SECONDS', 600), sampleSeconds: seconds('MOONGLASS_SOAK_SAMPLE_SECONDS', 30), messagesPerSecond: 20, groups: 50, membersPerGroup: 20 };
}

// `node … bench/soak.bench.ts` (or `npm run bench:soak`) runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const met = await benchSoak(soakOptionsFromEnvironment());
  process.exitCode = met ? 0 : 1;
}
