import { Writable } from 'node:stream';
import { pino } from 'pino';
import type * as z from 'zod';
import type { AdapterContext, AdapterStatus, InboundAck } from '../../../src/adapters/adapter-context.js';
import { configSchema, type OneBotConfig } from '../../../src/adapters/onebot_v11/config.js';
import type { InboundEnvelope } from '../../../src/chat/inbound-envelope.js';
import type { PlatformEvent } from '../../../src/chat/platform-events.js';

/** One pino line as recorded. */
export interface LogLine {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  msg: string;
  [key: string]: unknown;
}

const LEVEL_NAMES: Record<number, LogLine['level']> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

export interface FakeAdapterContext {
  context: AdapterContext<OneBotConfig>;
  received: InboundEnvelope[];
  /** Every receiveEvent() call (notices and requests), in order. */
  events: PlatformEvent[];
  statuses: AdapterStatus[];
  logs: LogLine[];
  abort(): void;
  waitForReceived(count: number): Promise<void>;
  waitForLog(predicate: (line: LogLine) => boolean, what: string): Promise<LogLine>;
  waitForStatus(predicate: (status: AdapterStatus) => boolean, what: string): Promise<AdapterStatus>;
}

export interface FakeContextOptions {
  accounts?: Record<string, string>;
  /** What receive() answers; default stored/delivered. */
  ack?: InboundAck;
  /** Answers receive() instead of `ack` (the envelope is recorded first), e.g. to hold one message back. */
  answer?: (envelope: InboundEnvelope) => Promise<InboundAck>;
  waitTimeoutMs?: number;
}

/**
 * An AdapterContext for running the adapter in-process: records each receive() call, each
 * status and each log line (a real pino logger writing into an array).
 */
export function createFakeContext(config: z.input<typeof configSchema>, options: FakeContextOptions = {}): FakeAdapterContext {
  const received: InboundEnvelope[] = [];
  const events: PlatformEvent[] = [];
  const statuses: AdapterStatus[] = [];
  const logs: LogLine[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const waitTimeoutMs = options.waitTimeoutMs ?? 5000;

  function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out after ${waitTimeoutMs} ms waiting for ${what}`));
      }, waitTimeoutMs);
      function check(): void {
        const found = find();
        if (found === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      }
      waiters.add(check);
      check();
    });
  }

  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const line = JSON.parse(chunk.toString('utf8')) as { level: number; msg?: string };
      logs.push({ ...line, level: LEVEL_NAMES[line.level] ?? 'info', msg: line.msg ?? '' });
      changed();
      callback();
    },
  });
  const controller = new AbortController();
  const context: AdapterContext<OneBotConfig> = {
    name: 'onebot_v11',
    config: configSchema.parse(config),
    logger: pino({ level: 'debug', base: undefined }, stream),
    bot: { nickname: 'Yueli', aliases: [], accounts: options.accounts ?? {} },
    signal: controller.signal,
    receive(envelope) {
      received.push(envelope);
      changed();
      return options.answer?.(envelope) ?? Promise.resolve(options.ack ?? { stored: true, status: 'delivered' });
    },
    receiveEvent(event) {
      events.push(event);
      changed();
      return Promise.resolve({ stored: true, status: 'delivered' });
    },
    setStatus(status) {
      statuses.push(status);
      changed();
    },
    inputClosed() {},
  };
  return {
    context,
    received,
    events,
    statuses,
    logs,
    abort: () => controller.abort(),
    waitForReceived: (count) => waitFor(() => (received.length >= count ? true : undefined), `${count} received message(s)`).then(() => undefined),
    waitForLog: (predicate, what) => waitFor(() => logs.find(predicate), `log line: ${what}`),
    waitForStatus: (predicate, what) => waitFor(() => statuses.findLast(predicate), `status: ${what}`),
  };
}
