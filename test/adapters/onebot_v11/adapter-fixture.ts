import type * as z from 'zod';
import { afterEach } from 'vitest';
import type { OutboundDelivery } from '../../../src/chat/outbound-sink.js';
import { createOneBotAdapter, type RunningOneBotAdapter } from '../../../src/adapters/onebot_v11/adapter.js';
import type { configSchema } from '../../../src/adapters/onebot_v11/config.js';
import { OneBotPeer, type PeerOptions, type ReverseConnectOptions } from '../../support/onebot-peer.js';
import { createFakeContext, type FakeAdapterContext, type FakeContextOptions } from './fake-adapter-context.js';

const cleanups: Array<() => Promise<void>> = [];

/** Registers the fixture's teardown; call once at the top of a test file. */
export function useAdapterCleanup(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
}

/** A peer that is closed after the test. */
export function createPeer(options: PeerOptions = {}): OneBotPeer {
  const peer = new OneBotPeer(options);
  cleanups.push(() => peer.close());
  return peer;
}

export interface ReverseFixture {
  fake: FakeAdapterContext;
  adapter: RunningOneBotAdapter;
  /** The adapter's reverse endpoint. */
  url: string;
  peer: OneBotPeer;
  /** Connects `peer` (NapCat-style) and waits until the connection is open. */
  connect(options?: Omit<ReverseConnectOptions, 'url'>): Promise<void>;
}

/** Starts the adapter in reverse mode on a free port, with a peer ready to connect. */
export async function startReverse(
  config: z.input<typeof configSchema> = {},
  options: FakeContextOptions = {},
): Promise<ReverseFixture> {
  const fake = createFakeContext({ ...config, mode: 'reverse', reverse: { port: 0, ...config.reverse } }, options);
  const adapter = await createOneBotAdapter(fake.context);
  cleanups.push(() => adapter.stop());
  const url = `ws://127.0.0.1:${adapter.listeningPort}/onebot/v11/ws`;
  const peer = createPeer();
  return {
    fake,
    adapter,
    url,
    peer,
    async connect(connectOptions = {}) {
      const before = peer.connectionCount;
      peer.connectReverse({ url, ...connectOptions });
      await peer.waitForConnection(before + 1);
    },
  };
}

/** Starts the adapter in forward mode against `url`. */
export async function startForward(
  url: string,
  config: z.input<typeof configSchema> = {},
  options: FakeContextOptions = {},
): Promise<{ fake: FakeAdapterContext; adapter: RunningOneBotAdapter }> {
  const fake = createFakeContext({ ...config, mode: 'forward', forward: { url, reconnect_interval_ms: 50, ...config.forward } }, options);
  const adapter = await createOneBotAdapter(fake.context);
  cleanups.push(() => adapter.stop());
  return { fake, adapter };
}

/** A private reply to user 20001, as the host hands it to the adapter. */
export const privateDelivery: OutboundDelivery = {
  streamId: 'qq:private:20001',
  platform: 'qq',
  chatType: 'private',
  groupId: null,
  userId: '20001',
  content: 'hi back',
  replyTo: null,
  at: null,
};
