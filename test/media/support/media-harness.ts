import type { ServerResponse } from 'node:http';
import { AppConfigSchema, type AppConfig } from '../../../src/kernel/config/app-config.js';
import { LlmService } from '../../../src/llm/llm-service.js';
import { ModelsConfigSchema } from '../../../src/llm/models-config.js';
import { MediaService, type MediaServiceOptions } from '../../../src/media/media-service.js';
import { openDatabase } from '../../../src/storage/open-database.js';
import { FakeOpenAiServer, completion, type FakeHandler } from '../../llm/support/fake-openai-server.js';
import { createTestBus } from '../../support/bus.js';
import { MediaFileServer } from './media-file-server.js';

export const BOT = { nickname: '月璃', aliases: ['璃璃', 'Yueli'] } as const;

/** models.toml with one loopback provider (no retries): `actor` on a chat model, `vlm` and `video` on a vision model. */
export function visionModels(baseUrl: string, tasks: Record<string, { models: string[] }> = {}) {
  return ModelsConfigSchema.parse({
    providers: { local: { base_url: baseUrl, max_retries: 0 } },
    models: { chat: { provider: 'local', model: 'chat-model' }, eyes: { provider: 'local', model: 'vision-model' } },
    tasks: { actor: { models: ['chat'] }, vlm: { models: ['eyes'] }, video: { models: ['eyes'] }, ...tasks },
  });
}

export interface HarnessOptions {
  media?: Partial<AppConfig['media']>;
  /** The models config; default `visionModels(<loopback model server>)`. */
  models?: (baseUrl: string) => unknown;
  honourRange?: boolean;
}

/**
 * A media service wired as the host wires it: an LlmService over a loopback OpenAI-compatible
 * server, an in-memory database, a manual clock, a memory logger, and a loopback file server.
 */
export async function createMediaHarness(options: HarnessOptions = {}) {
  const model = await FakeOpenAiServer.start();
  const files = await MediaFileServer.start({ honourRange: options.honourRange ?? true });
  const { bus, clock, logger, records, warnings } = createTestBus();
  const database = openDatabase({ file: ':memory:', logger });
  const modelsConfig = ModelsConfigSchema.parse(options.models?.(model.baseUrl) ?? visionModels(model.baseUrl));
  const llm = new LlmService({ config: modelsConfig, bus, clock, logger });
  // The file server is on loopback, which the default rule refuses; tests of that rule say `allow_private_addresses: false`.
  const config = AppConfigSchema.parse({ media: { allow_private_addresses: true, ...options.media } }).media;
  const build = (overrides: Partial<MediaServiceOptions> = {}): MediaService =>
    new MediaService({ config, llm, clock, logger, cache: database.mediaCache, bot: BOT, ...overrides });
  const service = build();
  /** Requests the model server received that were POSTs to /v1/chat/completions. */
  const modelCalls = () => model.requests.filter((request) => request.method === 'POST' && request.url === '/v1/chat/completions');
  const warned = (pattern: RegExp) => warnings().some((record) => pattern.test(String(record['reason'] ?? '')));
  return {
    model,
    files,
    clock,
    logger,
    records,
    warnings,
    warned,
    database,
    modelsConfig,
    llm,
    config,
    build,
    service,
    modelCalls,
    async close(): Promise<void> {
      await model.close();
      await files.close();
      database.close();
    },
  };
}

export type MediaHarness = Awaited<ReturnType<typeof createMediaHarness>>;

/** A model answer held back until `release()`; `closed` tells whether the client hung up first. */
export function heldAnswer(content: string): { handler: FakeHandler; release: () => void; closedEarly: Promise<boolean> } {
  let release: () => void = () => undefined;
  let settleClosed: (early: boolean) => void = () => undefined;
  const closedEarly = new Promise<boolean>((resolve) => (settleClosed = resolve));
  const handler: FakeHandler = (request, response: ServerResponse) => {
    response.on('close', () => settleClosed(!response.writableFinished));
    release = () => {
      if (!response.destroyed) completion({ content })(request, response);
    };
  };
  return { handler, release: () => release(), closedEarly };
}

/** The text of the first user message's parts in a recorded chat request. */
export function userParts(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const messages = body['messages'] as Array<{ role: string; content: unknown }>;
  const content = messages[0]?.content;
  return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
}
