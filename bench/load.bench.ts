import Database from 'better-sqlite3';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { freePort } from '../test/support/free-port.js';
import { OneBotPeer, type PeerActionRequest } from '../test/support/onebot-peer.js';
import { copyBuiltInPlugins } from '../src/testing/copy-plugin-folders.js';
import { benchScratch, ROOT } from './support/scratch.js';

// Load: 1,000 private conversations x 20 messages through the real bot (host process and
// OneBot v11 adapter process, as `npm start` runs them) and a OneBot peer on loopback that
// connects like NapCat. The model is the instant offline demo model, which answers each
// message by quoting it; typing delay and message buffer are off, so what is measured is the
// bot's own work. Every user waits for the answer before sending the next message, as people
// do; all 1,000 talk at once.
//
// Baseline, in the same run: the same peer and the same 20,000 turns against a bare WebSocket
// endpoint that answers each message event at once with send_private_msg (the transport floor).

const NODE_FLAGS = ['--conditions=source', '--import', join(ROOT, 'src/register-typescript.mjs')];
const DEMO_PREFIX = '（演示模型）收到：';

export interface LoadOptions {
  streams: number;
  messagesPerStream: number;
}

interface TurnResults {
  latenciesMs: number[];
  wallMs: number;
  /** How many answers quoted each message text. */
  answersPerMessage: Map<string, number>;
  /** Answers that quoted no message that was sent. */
  strayAnswers: number;
}


const text = (stream: number, index: number) => `u${stream}-m${index}`;
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Runs the closed-loop conversations over `peer`: user n sends message 0, and each answer to
 * its newest message sends the next, until every user has had `messagesPerStream` answers.
 */
function converse(peer: OneBotPeer, options: LoadOptions, timeoutMs: number): Promise<TurnResults> {
  const { streams, messagesPerStream } = options;
  const sentAt = new Map<string, number>();
  const answersPerMessage = new Map<string, number>();
  const latenciesMs: number[] = [];
  const next = new Array<number>(streams).fill(0);
  let strayAnswers = 0;
  let finished = 0;
  const started = performance.now();
  const send = (stream: number) => {
    const message = text(stream, next[stream]!);
    next[stream]! += 1;
    sentAt.set(message, performance.now());
    peer.pushPrivateMessage({ userId: 100_000 + stream, nickname: `用户${stream}`, message });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`load: ${finished} of ${streams} conversations finished within ${timeoutMs} ms`)), timeoutMs);
    const stop = peer.onAction((request: PeerActionRequest) => {
      if (request.action !== 'send_private_msg' && request.action !== 'send_msg') return;
      const content = answerText(request.params['message']);
      const quoted = content.startsWith(DEMO_PREFIX) ? content.slice(DEMO_PREFIX.length) : content;
      const at = sentAt.get(quoted);
      if (at === undefined) {
        strayAnswers += 1;
        return;
      }
      latenciesMs.push(performance.now() - at);
      answersPerMessage.set(quoted, (answersPerMessage.get(quoted) ?? 0) + 1);
      const stream = Number(request.params['user_id']) - 100_000;
      if (answersPerMessage.get(quoted)! > 1 || quoted !== text(stream, next[stream]! - 1)) return; // a repeat or an old one
      if (next[stream]! < messagesPerStream) send(stream);
      else if (++finished === streams) {
        clearTimeout(timer);
        stop();
        resolve({ latenciesMs, wallMs: performance.now() - started, answersPerMessage, strayAnswers });
      }
    });
    for (let stream = 0; stream < streams; stream += 1) send(stream);
  });
}

/** The plain text of an outgoing OneBot message (array of segments or a string). */
function answerText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (!Array.isArray(message)) return '';
  return message
    .filter((segment: { type?: string }) => segment.type === 'text')
    .map((segment: { data?: { text?: string } }) => segment.data?.text ?? '')
    .join('');
}

/** Peak resident memory (VmHWM) of a process, in MiB, or undefined when it cannot be read. */
function peakMemoryMiB(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('VmHWM:'));
    return line === undefined ? undefined : Number(/(\d+)/.exec(line)![1]) / 1024;
  } catch {
    return undefined;
  }
}

/** The pids of `pid`'s child processes (Linux). */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${seen.slice(-4000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (pattern.test(seen)) {
        if (process.env['MOONGLASS_LOAD_LOG'] === '1') process.stderr.write(seen);
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the bot exited (${code}) before ${pattern}:\n${seen.slice(-4000)}`)));
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
  storedInbound: number;
  storedTwice: number;
  storedOutbound: number;
}

async function throughTheBot(options: LoadOptions): Promise<BotRun> {
  const scratch = benchScratch('load-');
  const builtIns = copyBuiltInPlugins(join(scratch, 'built-in'));
  writeFileSync(join(builtIns, 'neo_default_chatter', 'config.toml'), '[plugin]\ntyping_delay_per_char = 0\n');
  const port = await freePort();
  const config = join(scratch, 'config');
  mkdirSync(join(config, 'adapters'), { recursive: true });
  writeFileSync(join(config, 'features.toml'), '[admin]\nenabled = false\n');
  writeFileSync(join(config, 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[chat]\nmessage_buffer_seconds = 0\n');
  writeFileSync(join(config, 'adapters', 'onebot_v11.toml'), `[reverse]\nport = ${port}\n`);
  // MOONGLASS_LOAD_PROFILE=<dir> writes a CPU profile of the host there (`--cpu-prof`).
  const profile = process.env['MOONGLASS_LOAD_PROFILE'];
  const profileFlags = profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profile];
  const child = spawn(process.execPath, [...profileFlags, ...NODE_FLAGS, join(ROOT, 'src/app/main.ts'), 'start', '--config-dir', config, '--data-dir', join(scratch, 'data'), '--log-level', process.env['MOONGLASS_LOAD_LOG'] === '1' ? 'debug' : 'info'], {
    cwd: scratch,
    env: { ...process.env, MOONGLASS_BUILT_IN_PLUGINS: builtIns },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const peer = new OneBotPeer({ waitTimeoutMs: 60_000 });
  try {
    await waitForLine(child, /"msg":"ready in/, 60_000);
    console.error('load: the bot is ready');
    if (process.env['MOONGLASS_LOAD_LOG'] === '1') child.stdout!.pipe(process.stderr);
    else child.stdout!.resume(); // keep draining the log
    peer.connectReverse({ url: `ws://127.0.0.1:${port}/onebot/v11/ws` });
    await peer.waitForConnection();
    console.error('load: the peer is connected');
    const turns = await converse(peer, options, 1_800_000);
    const hostPeakMiB = peakMemoryMiB(child.pid!);
    const adapterPid = childPids(child.pid!)[0];
    const adapterPeakMiB = adapterPid === undefined ? undefined : peakMemoryMiB(adapterPid);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const database = new Database(join(scratch, 'data', 'moonglass.db'), { readonly: true });
    try {
      const count = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
      return {
        ...turns,
        hostPeakMiB,
        adapterPeakMiB,
        storedInbound: count(`SELECT count(*) AS n FROM messages WHERE direction = 'inbound'`),
        storedTwice: count(`SELECT count(*) AS n FROM (SELECT content FROM messages WHERE direction = 'inbound' GROUP BY content HAVING count(*) > 1)`),
        storedOutbound: count(`SELECT count(*) AS n FROM messages WHERE direction = 'outbound'`),
      };
    } finally {
      database.close();
    }
  } finally {
    await peer.close();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }
}

function describeLatency(sorted: readonly number[]): string {
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

/**
 * Prints reply latency (p50, p99), peak memory and the delivery checks; true when every
 * message was stored exactly once and answered exactly once (at most once is the rule; a
 * closed loop with an answering model must also answer each).
 */
export async function benchLoad(options: LoadOptions = { streams: 1_000, messagesPerStream: 20 }): Promise<boolean> {
  const total = options.streams * options.messagesPerStream;
  console.error(`load: baseline (${total} turns) ...`);
  const floor = await baseline(options);
  console.error('load: through the bot ...');
  const bot = await throughTheBot(options);
  const floorSorted = [...floor.latenciesMs].sort((a, b) => a - b);
  const botSorted = [...bot.latenciesMs].sort((a, b) => a - b);
  const answeredTwice = [...bot.answersPerMessage.values()].filter((count) => count > 1).length;
  console.log(`\nLoad: ${options.streams} private conversations x ${options.messagesPerStream} messages (${total} turns) through OneBot v11 on loopback, instant demo model`);
  console.log(`  bare WebSocket endpoint (baseline)   ${describeLatency(floorSorted)}, ${((total / floor.wallMs) * 1000).toFixed(0)} turns/s`);
  console.log(`  moonglass (host + adapter process)   ${describeLatency(botSorted)}, ${((total / bot.wallMs) * 1000).toFixed(0)} turns/s`);
  console.log(`  ratio to the baseline                p50 ${(percentile(botSorted, 50) / percentile(floorSorted, 50)).toFixed(1)}x, p99 ${(percentile(botSorted, 99) / percentile(floorSorted, 99)).toFixed(1)}x`);
  console.log(`  peak memory (VmHWM)                  host ${bot.hostPeakMiB?.toFixed(0) ?? '?'} MiB, adapter ${bot.adapterPeakMiB?.toFixed(0) ?? '?'} MiB`);
  console.log(`  stored inbound ${bot.storedInbound} of ${total} (stored twice: ${bot.storedTwice}); outbound ${bot.storedOutbound}`);
  console.log(`  answered ${bot.answersPerMessage.size} of ${total} messages; answered more than once: ${answeredTwice}; answers quoting nothing sent: ${bot.strayAnswers}`);
  const met = bot.storedInbound === total && bot.storedTwice === 0 && answeredTwice === 0 && bot.strayAnswers === 0 && bot.answersPerMessage.size === total;
  console.log(`  goal: every message stored exactly once and answered at most once -> ${met ? 'MET' : 'MISSED'}`);
  return met;
}

// `node … bench/load.bench.ts [streams] [messages]` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [streams, messagesPerStream] = process.argv.slice(2).map(Number);
  const met = await benchLoad({ streams: streams || 1_000, messagesPerStream: messagesPerStream || 20 });
  process.exitCode = met ? 0 : 1;
}
