import { afterEach } from 'vitest';
import { createHost, type Host } from '../../../src/app/create-host.js';
import type { ChatStream } from '../../../src/chat/chat-stream.js';
import type { Message } from '../../../src/chat/message.js';
import type { ChatRuntime } from '../../../src/chatter/chat-runtime.js';
import type { ComponentClass } from '../../../src/kernel/components/component-metadata.js';
import { createMemoryLogger, type LogRecord } from '../../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../../src/kernel/time/manual-clock.js';
import type { ModelClient } from '../../../src/llm/model-client.js';
import { NeoChatterConfig, type NeoChatterConfigValues } from '../../../src/plugins/built_in/neo_default_chatter/config.js';
import { DEFAULT_HANDLERS } from '../../../src/plugins/built_in/neo_default_chatter/defaults/default-handlers.js';
import { withPluginSection, type NeoChatterConfig as SessionConfig } from '../../../src/plugins/built_in/neo_default_chatter/session/session-config.js';
import { groupEnvelope, privateEnvelope } from '../../support/chat.js';

export interface NdfcTestHost {
  host: Host;
  runtime: ChatRuntime;
  clock: ManualClock;
  records: LogRecord[];
  /** Registers components under `neo_default_chatter` (signatures `neo_default_chatter:<kind>:<name>`). */
  register(...classes: readonly ComponentClass[]): void;
  /** Registers components under another plugin id, as a third party would. */
  registerAs(pluginId: string, ...classes: readonly ComponentClass[]): void;
}

/** Starts a real host (memory database, manual clock, no plugins) per test; stops it after each test. */
export function useNdfcHost(): (options?: { offlineModel?: ModelClient; defaults?: boolean }) => Promise<NdfcTestHost> {
  const hosts: Host[] = [];
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.stop();
  });
  return async (options = {}) => {
    const { logger, records } = createMemoryLogger();
    const clock = new ManualClock();
    const host = createHost({
      appConfig: {},
      pluginRoots: [],
      database: 'memory',
      logger,
      clock,
      ...(options.offlineModel === undefined ? {} : { offlineModel: options.offlineModel }),
    });
    await host.start();
    hosts.push(host);
    const ndfcScope = host.createScope('neo_default_chatter');
    const scopes = new Map([['neo_default_chatter', ndfcScope]]);
    const registerAs = (pluginId: string, ...classes: readonly ComponentClass[]) => {
      let scope = scopes.get(pluginId);
      if (scope === undefined) {
        scope = host.createScope(pluginId);
        scopes.set(pluginId, scope);
      }
      for (const componentClass of classes) host.registry.register(scope, componentClass);
    };
    if (options.defaults === true) registerAs('neo_default_chatter', ...DEFAULT_HANDLERS);
    return {
      host,
      runtime: host.chat.runtime,
      clock,
      records,
      register: (...classes) => registerAs('neo_default_chatter', ...classes),
      registerAs,
    };
  };
}

/** NDFC's config with its defaults, changed by `overrides` (as a session carries it: `config.plugin` is the same values). */
export function ndfcConfig(overrides: Partial<NeoChatterConfigValues> = {}): SessionConfig {
  return withPluginSection(NeoChatterConfig.parse(overrides));
}

/** Receives messages into a real stream of `host` and returns the live stream with them unread. */
export async function streamWithUnreads(
  host: Host,
  texts: readonly string[],
  chat: 'private' | 'group' = 'group',
): Promise<{ stream: ChatStream; unreads: Message[] }> {
  let streamId = '';
  let index = 0;
  for (const text of texts) {
    index += 1;
    const envelope = chat === 'group' ? groupEnvelope(`m${index}`, text) : privateEnvelope(`m${index}`, text);
    const outcome = await host.receive(envelope, 'test:adapter:loopback');
    if (outcome.status !== 'delivered') throw new Error(`message ${index} was not delivered: ${outcome.status}`);
    streamId = outcome.message.streamId;
  }
  const stream = host.chat.streams.activateStream(streamId)!;
  return { stream, unreads: host.chat.streams.fetchUnreads(streamId) };
}

/** A message built by hand (time in epoch seconds). */
export function message(overrides: Partial<Message> = {}): Message {
  return {
    messageId: 'm1',
    streamId: 's1',
    direction: 'inbound',
    time: 1_700_000_000,
    replyTo: null,
    content: '你好',
    processedPlainText: '你好',
    messageType: 'text',
    senderId: '10001',
    senderName: '阿明',
    senderCard: null,
    senderRole: null,
    platform: 'qq',
    chatType: 'group',
    raw: null,
    extra: {},
    ...overrides,
  };
}
