import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../../test/support/free-port.js';
import { OneBotPeer } from '../../../test/support/onebot-peer.js';
import { BenchBot, type StoredCounts } from '../bench-bot.js';
import { ROOT } from '../scratch.js';

// The targets of bench/peers.bench.ts. Each start is a fresh process (tree) with the
// loopback peer connected to it over reverse WebSocket, as NapCat connects.

export type TargetName = 'moonglass' | 'moonglass-process' | 'koishi' | 'koishi-sqlite' | 'bare-ws';

export const TARGET_TITLES: Readonly<Record<TargetName, string>> = {
  moonglass: 'moonglass (dist/)',
  'moonglass-process': 'moonglass, adapter process',
  koishi: 'Koishi, no database',
  'koishi-sqlite': 'Koishi + SQLite',
  'bare-ws': 'bare ws endpoint',
};

export interface StartedTarget {
  /** The process the target was started as; its descendants are part of it. */
  rootPid: number;
  peer: OneBotPeer;
  /** Stops the target with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
  /** What moonglass stored (after stop); undefined for the others. */
  storedCounts(): StoredCounts | undefined;
  /** Closes the peer, kills what still runs, removes scratch files. Safe to call twice. */
  dispose(): Promise<void>;
}

export interface TargetSetup {
  /** The bot project holding the compiled moonglass (see moonglass-package.ts). */
  moonglassProject: string;
  /** Where Koishi is installed (see koishi-install.ts). */
  koishiFolder: string;
}

const SELF_ID = '10000';
const READY_TIMEOUT_MS = 60_000;
const PEER_WAIT_MS = 60_000;

export function startTarget(name: TargetName, setup: TargetSetup): Promise<StartedTarget> {
  switch (name) {
    case 'moonglass':
    case 'moonglass-process':
      return startMoonglass(setup.moonglassProject, name === 'moonglass' ? undefined : 'process');
    case 'koishi':
    case 'koishi-sqlite':
      return startKoishi(setup.koishiFolder, name === 'koishi-sqlite');
    case 'bare-ws':
      return startBareWs();
  }
}

/**
 * moonglass from its compiled package: `node dist/app/main.js start`, the host, which runs the
 * OneBot adapter in a worker thread (the default), or forks it a process (`isolation = "process"`).
 */
async function startMoonglass(project: string, isolation: 'process' | undefined): Promise<StartedTarget> {
  const bot = await BenchBot.start({ prefix: 'run-', installedProject: project, peerWaitTimeoutMs: PEER_WAIT_MS, isolation });
  let stored: StoredCounts | undefined;
  return {
    rootPid: bot.hostPid,
    peer: bot.peer,
    stop: async () => {
      await bot.stop();
      stored = bot.storedCounts();
    },
    storedCounts: () => stored,
    dispose: () => bot.dispose(),
  };
}

/**
 * Answers to the actions Koishi's OneBot adapter calls when a connection opens (get_login_info,
 * then get_guild_service_profile), and the lists it may ask for, as NapCat answers them. The
 * peer's defaults stay for everything else (get_guild_service_profile: unknown action, which
 * Koishi ignores).
 */
function answerLikeNapCat(peer: OneBotPeer): void {
  peer.answer('get_login_info', { kind: 'ok', data: { user_id: Number(SELF_ID), nickname: 'bench-bot' } });
  peer.answer('get_version_info', { kind: 'ok', data: { app_name: 'OneBotPeer', app_version: '1.0.0', protocol_version: 'v11' } });
  peer.answer('get_friend_list', { kind: 'ok', data: [] });
  peer.answer('get_group_list', { kind: 'ok', data: [] });
}

/** Koishi 4.18 with the OneBot adapter and the echo middleware (bench/support/peers/koishi-bot.mjs), optionally on SQLite. */
async function startKoishi(folder: string, sqlite: boolean): Promise<StartedTarget> {
  const scratch = mkdtempSync(join(ROOT, '.bench-temp', 'peers', 'koishi-run-'));
  const port = await freePort();
  const args = [join(ROOT, 'bench/support/peers/koishi-bot.mjs'), folder, String(port), SELF_ID, ...(sqlite ? [join(scratch, 'koishi.db')] : [])];
  const child = spawn(process.execPath, args, { cwd: scratch, env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  const peer = new OneBotPeer({ selfId: SELF_ID, waitTimeoutMs: PEER_WAIT_MS });
  answerLikeNapCat(peer);
  const target = childTarget(child, peer, scratch);
  try {
    await waitForLine(child, /^koishi-peer: ready$/m, READY_TIMEOUT_MS);
    peer.connectReverse({ url: `ws://127.0.0.1:${port}/onebot` });
    await peer.waitForConnection();
    // The adapter brings the bot online once it has the login info and the guild profile answer.
    await peer.waitForAction('get_guild_service_profile');
    await new Promise((resolve) => setTimeout(resolve, 200));
    return target;
  } catch (error) {
    await target.dispose();
    throw error;
  }
}

/** The transport floor as a process of its own (bench/support/peers/bare-ws.mjs). */
async function startBareWs(): Promise<StartedTarget> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bench/support/peers/bare-ws.mjs'), String(port)], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  const peer = new OneBotPeer({ selfId: SELF_ID, waitTimeoutMs: PEER_WAIT_MS });
  answerLikeNapCat(peer);
  const target = childTarget(child, peer, undefined);
  try {
    await waitForLine(child, /^bare-ws: ready$/m, READY_TIMEOUT_MS);
    peer.connectReverse({ url: `ws://127.0.0.1:${port}/` });
    await peer.waitForConnection();
    return target;
  } catch (error) {
    await target.dispose();
    throw error;
  }
}

/** This process's environment without its TypeScript loader's variable: the peers run plain JavaScript. */
function cleanEnv(): NodeJS.ProcessEnv {
  const { TSX_TSCONFIG_PATH: _tsconfig, ...env } = process.env;
  return env;
}

function childTarget(child: ChildProcess, peer: OneBotPeer, scratch: string | undefined): StartedTarget {
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    rootPid: child.pid!,
    peer,
    stop: async () => {
      await peer.close();
      if (!running()) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
    storedCounts: () => undefined,
    dispose: async () => {
      await peer.close();
      if (running()) child.kill('SIGKILL');
      if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Resolves when the child's stdout has printed a line matching `pattern`; keeps draining it after. */
function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let ready = false;
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${seen.slice(-4000)}`)), timeoutMs);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (ready) return; // drained, so that the child never blocks on a full pipe
      seen += chunk;
      if (!pattern.test(seen)) return;
      ready = true;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the process exited (${code}) before ${pattern}:\n${seen.slice(-4000)}`));
    });
  });
}
