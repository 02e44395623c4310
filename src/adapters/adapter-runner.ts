import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HostToAdapter } from './ipc-protocol.js';

// Where an adapter runs: its own process (the default, DESIGN.md's "each adapter in its own
// process": a crash, a leak or a blocked event loop there cannot touch the host), or a worker
// thread of the host's process (`[platform] isolation = "thread"`), which saves the second
// Node process: about 45-60 MiB of a small bot's memory, and the IPC's JSON on every message.
// A thread still has its own event loop and heap, and its crash is restarted like a process's;
// what it gives up is that the host's own death (or a kill -9 of it) takes the adapter along,
// and that a runaway allocation is bounded by the thread's heap limits instead of by the OS.
// docs/contributing/departures.md has the reasoning.

/** How an adapter is isolated from the host. */
export type AdapterIsolation = 'process' | 'thread';

/** One running adapter, process or thread: the supervisor's side of it. */
export interface AdapterRunner {
  readonly isolation: AdapterIsolation;
  /** The process id (isolation `process`); for a thread, the host's own. */
  readonly pid: number | undefined;
  /** The worker's thread id (isolation `thread`). */
  readonly threadId: number | undefined;
  /** True until it exited. */
  readonly running: boolean;
  send(message: HostToAdapter): void;
  /** Ends it now (a process: SIGTERM, or SIGKILL with `hard`; a thread: terminated either way). */
  kill(hard?: boolean): void;
}

export interface AdapterRunnerEvents {
  onMessage(raw: unknown): void;
  /** It ended: a process's exit code or signal; a thread's exit code. */
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
  /** A problem worth a log line (the process could not be spawned, a thread's uncaught error). */
  onError(error: Error): void;
  /** A message to it could not be handed over (it is exiting). */
  onSendFailed(error: Error): void;
}

export interface AdapterRunnerOptions {
  /** The adapter's folder, the entry's one argument. */
  folder: string;
  /** The adapter reads the terminal (the console adapter). */
  stdin: 'inherit' | 'ignore';
}

const ENTRY = fileURLToPath(new URL(`./adapter-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
const FROM_SOURCES = ENTRY.endsWith('.ts');

/**
 * V8's heap for an adapter. A transport keeps almost nothing alive (the replies in flight),
 * but V8's default young generation lets every frame's garbage pile up between collections:
 * at 1,000 conversations at once the process peaked at 115-135 MiB. A 1 MiB semi-space
 * collects it as it goes (74-77 MiB, for ~15% more of the process's small CPU share); the old
 * generation is capped well above anything a transport needs, so a runaway adapter ends in a
 * restart by the supervisor instead of taking the machine's memory. A thread gets the same
 * limits through `resourceLimits` (its young generation is three semi-spaces).
 */
const ADAPTER_HEAP_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=256'];
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 3, maxOldGenerationSizeMb: 256 };
/** Run from the sources (no build step): the child, or the thread, compiles TypeScript through tsx. */
const SOURCE_FLAGS = ['--conditions=source', '--import', new URL('../register-typescript.mjs', import.meta.url).href];

/** Starts the adapter in `folder` as `isolation` says. */
export function startAdapterRunner(isolation: AdapterIsolation, options: AdapterRunnerOptions, events: AdapterRunnerEvents): AdapterRunner {
  return isolation === 'thread' ? startThread(options, events) : startProcess(options, events);
}

function startProcess(options: AdapterRunnerOptions, events: AdapterRunnerEvents): AdapterRunner {
  const child = fork(ENTRY, [options.folder], {
    execArgv: FROM_SOURCES ? [...ADAPTER_HEAP_FLAGS, ...SOURCE_FLAGS] : ADAPTER_HEAP_FLAGS,
    stdio: [options.stdin, 'inherit', 'inherit', 'ipc'],
    serialization: 'json',
  });
  child.on('message', (raw) => events.onMessage(raw));
  child.once('exit', (code, signal) => events.onExit(code, signal));
  child.on('error', (error) => events.onError(error));
  return {
    isolation: 'process',
    get pid() {
      return child.pid;
    },
    threadId: undefined,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    send(message) {
      if (!child.connected) return;
      child.send(message, (error) => {
        if (error !== null && error !== undefined) events.onSendFailed(error);
      });
    },
    kill(hard = false) {
      child.kill(hard ? 'SIGKILL' : 'SIGTERM');
    },
  };
}

function startThread(options: AdapterRunnerOptions, events: AdapterRunnerEvents): AdapterRunner {
  const worker = new Worker(ENTRY, {
    argv: [options.folder],
    execArgv: FROM_SOURCES ? SOURCE_FLAGS : [],
    resourceLimits: THREAD_LIMITS,
    stdin: options.stdin === 'inherit',
    // The worker's stdout and stderr go to the host's (Node pipes them through this thread).
  });
  let running = true;
  if (options.stdin === 'inherit' && worker.stdin !== null) {
    process.stdin.pipe(worker.stdin);
    worker.once('exit', () => process.stdin.unpipe(worker.stdin!));
  }
  worker.on('message', (raw) => events.onMessage(raw));
  // An uncaught error ends the thread (its exit follows, code 1).
  worker.on('error', (error) => events.onError(error));
  worker.once('exit', (code) => {
    running = false;
    events.onExit(code, null);
  });
  return {
    isolation: 'thread',
    pid: process.pid,
    threadId: worker.threadId,
    get running() {
      return running;
    },
    send(message) {
      if (!running) return;
      try {
        // Structured clone: the messages are plain data (the protocol is JSON-shaped).
        worker.postMessage(message);
      } catch (error) {
        events.onSendFailed(error as Error);
      }
    },
    kill() {
      void worker.terminate();
    },
  };
}
