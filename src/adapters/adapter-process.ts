/**
 * The entry of every adapter: `node adapter-process.(ts|js) <adapter folder>`, forked by the
 * host's `AdapterSupervisor` with an IPC channel, or started by it as a worker thread with the
 * folder in its argv (isolation `thread`, see adapter-runner.ts; then the channel is the
 * thread's `parentPort`). It imports the adapter's factory, waits for `init` (the validated
 * config and the bot facts), starts the adapter, and then translates between the channel's
 * messages and the `AdapterContext` / `Adapter` calls.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort } from 'node:worker_threads';
import { pino } from 'pino';
import type { InboundEnvelope } from '../chat/inbound-envelope.js';
import type { Adapter, AdapterContext, AdapterFactory, InboundAck } from './adapter-context.js';
import type { AdapterToHost, HostToAdapterParsed } from './ipc-protocol.js';
import { markedDeliveryFailure } from '../chat/delivery-failure.js';

const folder = process.argv[2];
if (folder === undefined || (isMainThread && process.send === undefined)) {
  process.stderr.write('adapter-process: run by the host with an adapter folder and an IPC channel\n');
  process.exit(2);
}
const hostPort = isMainThread ? undefined : parentPort!;

function send(message: AdapterToHost): void {
  if (hostPort !== undefined) hostPort.postMessage(message);
  // The channel is gone when the host died or is killing us; nothing to tell it then.
  else if (process.connected) process.send!(message);
}

const logger = pino({ level: 'trace', base: undefined }, {
  write(line: string) {
    send({ type: 'log', record: JSON.parse(line) as Record<string, unknown> });
  },
});

const pendingAcks = new Map<number, (ack: InboundAck) => void>();
let nextInboundId = 0;
let adapter: Adapter | undefined;
const stopping = new AbortController();

async function loadFactory(): Promise<AdapterFactory<unknown>> {
  const entry = ['adapter.ts', 'adapter.js'].map((file) => join(folder!, file)).find((file) => existsSync(file));
  if (entry === undefined) throw new Error(`no adapter.ts or adapter.js in ${folder}`);
  const module = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  if (typeof module.default !== 'function') throw new Error(`${entry} must export default an adapter factory function`);
  return module.default as AdapterFactory<unknown>;
}

// The code loads while the host is still starting (the process may be forked early).
const factoryLoaded = loadFactory();
factoryLoaded.catch(() => undefined);

async function start(init: Extract<HostToAdapterParsed, { type: 'init' }>): Promise<void> {
  const factory = await factoryLoaded;
  const context: AdapterContext<unknown> = {
    name: init.name,
    config: init.config,
    logger,
    bot: init.bot,
    signal: stopping.signal,
    receive(envelope: InboundEnvelope) {
      const id = nextInboundId++;
      return new Promise<InboundAck>((resolve) => {
        pendingAcks.set(id, resolve);
        send({ type: 'inbound', id, envelope });
      });
    },
    receiveEvent(event) {
      const id = nextInboundId++;
      return new Promise<InboundAck>((resolve) => {
        pendingAcks.set(id, resolve);
        send({ type: 'event', id, event });
      });
    },
    setStatus(status) {
      const { accounts, ...rest } = status;
      send({ type: 'status', ...rest, ...(accounts === undefined ? {} : { accounts: accounts.map((account) => ({ ...account })) }) });
    },
    inputClosed() {
      send({ type: 'input_closed' });
    },
  };
  adapter = await factory(context);
  send({ type: 'ready', canCall: adapter.call !== undefined });
}

async function answer(id: number, work: () => Promise<unknown>): Promise<void> {
  try {
    send({ type: 'result', id, ok: true, value: await work() });
  } catch (error) {
    const failure = markedDeliveryFailure(error);
    send({ type: 'result', id, ok: false, error: error instanceof Error ? error.message : String(error), ...(failure === undefined ? {} : { failure }) });
  }
}

async function shutdown(code: number): Promise<never> {
  stopping.abort();
  try {
    await adapter?.stop();
  } catch (error) {
    logger.error({ error: String(error) }, 'the adapter failed while stopping');
  }
  if (hostPort === undefined && process.connected) process.disconnect();
  // In a thread, this ends the thread only.
  process.exit(code);
}

function fail(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  send({ type: 'fatal', error: text });
  process.exitCode = 1;
  // Let the IPC message go out before the process ends.
  setImmediate(() => process.exit(1));
}

// The host validated everything it sends against HostToAdapterSchema's types; this side only
// checks the tag (and does not load zod: the process start is on the bot's start-up path).
const HOST_MESSAGE_TYPES = new Set(['init', 'deliver', 'confirm', 'call', 'inbound_ack', 'shutdown']);

function onHostMessage(raw: unknown): void {
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !HOST_MESSAGE_TYPES.has(type)) {
    logger.error({ type: String(type) }, 'ignored a message from the host with an unknown type');
    return;
  }
  const message = raw as HostToAdapterParsed;
  switch (message.type) {
    case 'init':
      start(message).catch(fail);
      return;
    case 'deliver':
      void answer(message.id, async () => {
        if (adapter === undefined) throw Object.assign(new Error('the adapter has not started yet'), { deliveryFailure: 'retry' });
        send({ type: 'accepted', id: message.id });
        return adapter.deliver(message.delivery);
      });
      return;
    case 'confirm':
      void answer(message.id, async () => {
        if (adapter?.confirm === undefined) return { status: 'unknown', reason: 'this adapter cannot look up its sent messages' };
        return adapter.confirm({ delivery: message.delivery, sinceMs: message.sinceMs, knownMessageIds: message.knownMessageIds });
      });
      return;
    case 'call':
      void answer(message.id, async () => {
        if (adapter?.call === undefined) throw new Error(`the ${String(process.argv[2])} adapter has no platform actions`);
        return adapter.call(message.action, message.params, message.account ?? null);
      });
      return;
    case 'inbound_ack':
      pendingAcks.get(message.id)?.(message.ack);
      pendingAcks.delete(message.id);
      return;
    case 'shutdown':
      void shutdown(0);
      return;
  }
}

if (hostPort !== undefined) hostPort.on('message', onHostMessage);
else {
  process.on('message', onHostMessage);
  // The host went away (crashed or was killed): nobody is left to talk to. (A thread ends with the host.)
  process.on('disconnect', () => void shutdown(0));
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
