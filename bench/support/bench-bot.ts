import Database from 'better-sqlite3';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../test/support/free-port.js';
import { OneBotPeer } from '../../test/support/onebot-peer.js';
import { copyBuiltInPlugins, copyPluginFolder } from '../../src/testing/copy-plugin-folders.js';
import { childPids } from './process-memory.js';
import { benchScratch, ROOT } from './scratch.js';

const NODE_FLAGS = ['--conditions=source', '--import', join(ROOT, 'src/register-typescript.mjs')];

export interface BenchBotOptions {
  /** Scratch folder prefix under `.bench-temp/`. */
  prefix: string;
  /** Extra lines for NDFC's `[plugin]` table (typing delay 0 is always set). */
  ndfcConfig?: string;
  /** The peer's `waitFor…` timeout; default 60 s. */
  peerWaitTimeoutMs?: number;
  /**
   * The bot accounts: one loopback peer per self id, each connected with its own `X-Self-ID`
   * at once; default one peer as `10000`.
   */
  selfIds?: readonly string[];
  /**
   * Run the compiled package, as an installed moonglass runs: a bot project folder holding
   * `node_modules/moonglass/` (its package.json and dist/). The host is started with plain
   * `node` from that dist/ (no TypeScript loader, no `source` condition), the built-ins are
   * copied from its `dist/plugins/built_in`, and the scratch folder is made inside the project
   * so that the copied plugins import that `moonglass`. Default: this checkout's src/ through tsx.
   */
  installedProject?: string;
  /** `bot.toml [platform] isolation`: the adapter in a thread of the host's or a process of its own; default: not written (a thread). */
  isolation?: 'process' | 'thread';
}

/** Counts from the bot's database, read after it stopped. */
export interface StoredCounts {
  inbound: number;
  /** Inbound texts stored more than once. */
  inboundTwice: number;
  outbound: number;
}

/** One stored inbound message with the account of the conversation (stream) it was stored in. */
export interface StoredInbound {
  content: string;
  streamId: string;
  /** `streams.account`: the bot account the conversation belongs to (null: not yet claimed). */
  account: string | null;
}

/**
 * The real bot as `npm start` runs it (host process, the OneBot v11 adapter in a thread of it
 * or, with `isolation: 'process'`, a process of its own) with a scratch config: the onebot_v11 adapter in reverse mode, NDFC's typing delay
 * 0, message buffer 0, admin off, the instant offline demo model; and a loopback peer per
 * bot account connected to it as NapCat connects.
 */
export class BenchBot {
  readonly child: ChildProcess;
  /** One peer per self id, in the order of `selfIds`. */
  readonly peers: readonly OneBotPeer[];
  readonly #scratch: string;

  private constructor(child: ChildProcess, peers: readonly OneBotPeer[], scratch: string) {
    this.child = child;
    this.peers = peers;
    this.#scratch = scratch;
  }

  /** The first (with the default options, the only) peer. */
  get peer(): OneBotPeer {
    return this.peers[0]!;
  }

  static async start(options: BenchBotOptions): Promise<BenchBot> {
    const installed = options.installedProject === undefined ? undefined : join(options.installedProject, 'node_modules', 'moonglass');
    const scratch = options.installedProject === undefined ? benchScratch(options.prefix) : mkdtempSync(join(options.installedProject, options.prefix));
    const builtIns = installed === undefined ? copyBuiltInPlugins(join(scratch, 'built-in')) : copyCompiledBuiltIns(join(installed, 'dist', 'plugins', 'built_in'), join(scratch, 'built-in'));
    writeFileSync(join(builtIns, 'neo_default_chatter', 'config.toml'), `[plugin]\ntyping_delay_per_char = 0\n${options.ndfcConfig ?? ''}`);
    const port = await freePort();
    const config = join(scratch, 'config');
    mkdirSync(join(config, 'adapters'), { recursive: true });
    writeFileSync(join(config, 'features.toml'), '[admin]\nenabled = false\n');
    writeFileSync(join(config, 'bot.toml'), `[platform]\nadapter = "onebot_v11"\n${options.isolation === undefined ? '' : `isolation = "${options.isolation}"\n`}[chat]\nmessage_buffer_seconds = 0\n`);
    writeFileSync(join(config, 'adapters', 'onebot_v11.toml'), `[reverse]\nport = ${port}\n`);
    // MOONGLASS_LOAD_PROFILE=<dir> writes a CPU profile of the host there (`--cpu-prof`).
    const profile = process.env['MOONGLASS_LOAD_PROFILE'];
    const profileFlags = profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profile];
    const logging = process.env['MOONGLASS_LOAD_LOG'] === '1';
    // The installed package gets no trace of this process's TypeScript loader.
    const { TSX_TSCONFIG_PATH: _tsconfig, ...installedEnv } = process.env;
    const child = spawn(
      process.execPath,
      [...profileFlags, ...(installed === undefined ? [...NODE_FLAGS, join(ROOT, 'src/app/main.ts')] : [join(installed, 'dist', 'app', 'main.js')]), 'start', '--config-dir', config, '--data-dir', join(scratch, 'data'), '--log-level', logging ? 'debug' : 'info'],
      { cwd: scratch, env: { ...(installed === undefined ? process.env : installedEnv), MOONGLASS_BUILT_IN_PLUGINS: builtIns }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const selfIds = options.selfIds ?? ['10000'];
    if (selfIds.length === 0) throw new Error('BenchBot: selfIds is empty (give at least one bot account)');
    const peers = selfIds.map((selfId) => new OneBotPeer({ selfId, waitTimeoutMs: options.peerWaitTimeoutMs ?? 60_000 }));
    const bot = new BenchBot(child, peers, scratch);
    try {
      await waitForLine(child, /"msg":"ready in/, 60_000);
      if (logging) child.stdout!.pipe(process.stderr);
      else child.stdout!.resume(); // keep draining the log
      for (const peer of peers) peer.connectReverse({ url: `ws://127.0.0.1:${port}/onebot/v11/ws` });
      await Promise.all(peers.map((peer) => peer.waitForConnection()));
      return bot;
    } catch (error) {
      await bot.dispose();
      throw error;
    }
  }

  get hostPid(): number {
    return this.child.pid!;
  }

  /** The adapter process's pid now (it changes if the host restarts the adapter). */
  adapterPid(): number | undefined {
    return childPids(this.hostPid)[0];
  }

  /** Stops the bot with SIGTERM, as a user does, and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }

  /** Counts what the stopped bot stored. */
  storedCounts(): StoredCounts {
    return this.#readDatabase((database) => {
      const count = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
      return {
        inbound: count(`SELECT count(*) AS n FROM messages WHERE direction = 'inbound'`),
        inboundTwice: count(`SELECT count(*) AS n FROM (SELECT content FROM messages WHERE direction = 'inbound' GROUP BY content HAVING count(*) > 1)`),
        outbound: count(`SELECT count(*) AS n FROM messages WHERE direction = 'outbound'`),
      };
    });
  }

  /** Every stored inbound message with its stream's account, read after the bot stopped. */
  storedInbound(): StoredInbound[] {
    return this.#readDatabase(
      (database) =>
        database
          .prepare(`SELECT m.content AS content, m.stream_id AS streamId, s.account AS account FROM messages m JOIN streams s ON s.stream_id = m.stream_id WHERE m.direction = 'inbound'`)
          .all() as StoredInbound[],
    );
  }

  #readDatabase<T>(read: (database: Database.Database) => T): T {
    const database = new Database(join(this.#scratch, 'data', 'moonglass.db'), { readonly: true });
    try {
      return read(database);
    } finally {
      database.close();
    }
  }

  /** Closes the peers, kills the bot if it still runs, and removes the scratch folder. Safe to call twice. */
  async dispose(): Promise<void> {
    await Promise.all(this.peers.map((peer) => peer.close()));
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    rmSync(this.#scratch, { recursive: true, force: true });
  }
}

/** Copies the compiled built-in plugins (each a folder under `from`) into `into`; returns `into`. */
function copyCompiledBuiltIns(from: string, into: string): string {
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(from)) copyPluginFolder(join(from, name), into);
  return into;
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
