import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AppConfigSchema } from '../../src/kernel/config/app-config.js';
import { createTestHost, type TestHost } from '../../src/testing/create-test-host.js';
import { completion, FakeOpenAiServer, type FakeHandler } from '../llm/support/fake-openai-server.js';
import { buildPng } from '../media/support/build-png.js';
import { MediaFileServer } from '../media/support/media-file-server.js';

// The whole path through one host: an inbound message with an image, a loopback image server,
// a loopback OpenAI-compatible model that both describes the image (task vlm) and answers
// (task actor). The chatter's prompt shows the description, not the placeholder. The image
// server is on loopback, so the first test allows private addresses as a LAN setup would.

describe('inbound images through the host', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  it('[T-32] an inbound [图片] is described (cached by content) before the chatter reads the message', async () => {
    const files = await MediaFileServer.start();
    closers.push(() => files.close());
    const url = files.serve('/cat.png', { body: buildPng({ width: 4, height: 4 }), contentType: 'image/png' });
    const model = await FakeOpenAiServer.start();
    closers.push(() => model.close());
    const vision = completion({ role: 'assistant', content: '一只橘猫趴在窗台上' });
    const reply = completion({ role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_text', arguments: '{"content":"好可爱"}' } }] }, 'tool_calls');
    const quiet = completion({ role: 'assistant', content: '' });
    let actorCalls = 0;
    const route: FakeHandler = (request, response) => {
      const isVision = JSON.stringify(request.body).includes('image_url');
      if (isVision) return vision(request, response);
      actorCalls += 1;
      return (actorCalls === 1 ? reply : quiet)(request, response);
    };
    model.reply(route);
    const test: TestHost = await createTestHost({
      appConfig: AppConfigSchema.parse({ media: { allow_private_addresses: true } }),
      modelsConfig: {
        providers: { loopback: { base_url: model.baseUrl } },
        models: { main: { provider: 'loopback', model: 'vision-chat' } },
        tasks: { actor: { models: ['main'] }, vlm: { models: ['main'] } },
      },
    });
    closers.push(() => test.stop());
    expect(test.host.media.imagesAvailable()).toBe(true);

    await test.adapter.send('看 [图片]', { media: [{ kind: 'image', url }] });
    // Real sockets and the manual clock: let time pass in small steps until the reply is out.
    for (let step = 0; step < 200 && test.adapter.texts().length === 0; step += 1) {
      await test.settle(100);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(test.adapter.texts()).toEqual(['好可爱']);
    const actorRequest = model.requests.find((request) => !JSON.stringify(request.body).includes('image_url'))!;
    expect(JSON.stringify(actorRequest.body)).toContain('看 [图片：一只橘猫趴在窗台上]');
    const [streamId] = test.host.chat.streams.activeStreamIds();
    expect(test.host.chat.database.messages.history(streamId!, 10).find((message) => message.direction === 'inbound')?.processedPlainText).toBe(
      '看 [图片：一只橘猫趴在窗台上]',
    );

    // The same picture again: described from the cache, no second download or vision call.
    const visionCalls = model.requests.filter((request) => JSON.stringify(request.body).includes('image_url')).length;
    expect(await test.host.media.describeImage(url)).toBe('[图片：一只橘猫趴在窗台上]');
    expect(model.requests.filter((request) => JSON.stringify(request.body).includes('image_url')).length).toBe(visionCalls);
  });

  it('[issue 13.7] by default an inbound file:// image or loopback image URL is not fetched, and the chat shows only the placeholders', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'moonglass-inbound-'));
    closers.push(async () => rmSync(folder, { recursive: true, force: true }));
    const secret = join(folder, 'secret.png');
    writeFileSync(secret, buildPng({ width: 4, height: 4 }));
    const files = await MediaFileServer.start();
    closers.push(() => files.close());
    const internal = files.serve('/internal.png', { body: buildPng({ width: 4, height: 4 }), contentType: 'image/png' });
    const model = await FakeOpenAiServer.start();
    closers.push(() => model.close());
    const vision = completion({ role: 'assistant', content: '一张不该被看到的图' });
    const reply = completion({ role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_text', arguments: '{"content":"看不到图"}' } }] }, 'tool_calls');
    const quiet = completion({ role: 'assistant', content: '' });
    let actorCalls = 0;
    model.reply((request, response) => {
      if (JSON.stringify(request.body).includes('image_url')) return vision(request, response);
      actorCalls += 1;
      return (actorCalls === 1 ? reply : quiet)(request, response);
    });
    const test: TestHost = await createTestHost({
      modelsConfig: {
        providers: { loopback: { base_url: model.baseUrl } },
        models: { main: { provider: 'loopback', model: 'vision-chat' } },
        tasks: { actor: { models: ['main'] }, vlm: { models: ['main'] } },
      },
    });
    closers.push(() => test.stop());

    await test.adapter.send('看 [图片] 和 [图片]', {
      media: [
        { kind: 'image', url: pathToFileURL(secret).href },
        { kind: 'image', url: internal },
      ],
    });
    for (let step = 0; step < 200 && test.adapter.texts().length === 0; step += 1) {
      await test.settle(100);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }

    expect(test.adapter.texts()).toEqual(['看不到图']);
    expect(model.requests.filter((request) => JSON.stringify(request.body).includes('image_url'))).toHaveLength(0);
    expect(files.requests).toHaveLength(0);
    const actorRequest = model.requests.find((request) => request.method === 'POST')!;
    expect(JSON.stringify(actorRequest.body)).toContain('看 [图片] 和 [图片]');
    expect(JSON.stringify(actorRequest.body)).not.toContain('不该被看到');
    const reasons = test.logs.filter((record) => record.level === 'warn').map((record) => String(record['reason'] ?? ''));
    expect(reasons.some((reason) => /refused to read a file:\/\/ URL/.test(reason))).toBe(true);
    expect(reasons.some((reason) => /private place: 127\.0\.0\.1/.test(reason))).toBe(true);
  });
});
