import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import { completion, hang, json, text } from '../llm/support/fake-openai-server.js';
import { buildJpegMagic, buildPng } from './support/build-png.js';
import { createMediaHarness, type MediaHarness, userParts } from './support/media-harness.js';

const PNG = buildPng();
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe(MediaService, () => {
  let harness: MediaHarness;
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'moonglass-media-'));
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    harness = await createMediaHarness({ media: { image_max_bytes: 64 * 1024, image_download_timeout_s: 10, recognition_timeout_s: 30 } });
  });
  afterEach(async () => {
    await harness.close();
  });

  describe('.describeImage', () => {
    describe('when the image downloads and the vision model answers', () => {
      it('[T-32] returns [图片：…] from task vlm, sending a short Chinese instruction and the image as a low-detail data URL', async () => {
        harness.model.reply(completion({ content: '一只橘猫趴在键盘上' }));
        const url = harness.files.serve('/cat.png', { body: PNG, contentType: 'image/png' });

        await expect(harness.service.describeImage(url)).resolves.toBe('[图片：一只橘猫趴在键盘上]');

        const [call] = harness.modelCalls();
        expect(call!.body['model']).toBe('vision-model');
        expect(call!.body).not.toHaveProperty('stream');
        const [instruction, image] = userParts(call!.body);
        expect(instruction).toMatchObject({ type: 'text' });
        expect(String(instruction!['text'])).toMatch(/[\u4e00-\u9fff]/);
        expect(image).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}`, detail: 'low' } });
        expect(harness.database.mediaCache.get('image', sha256(PNG))).toMatchObject({ text: '[图片：一只橘猫趴在键盘上]', durationS: null });
      });

      it('[T-32] makes the answer one trimmed line of at most 100 characters', async () => {
        harness.model.reply(completion({ content: `  第一行\n\n第二行 [注]  ${'长'.repeat(200)}\n` }));
        const url = harness.files.serve('/long.png', { body: PNG });

        const result = await harness.service.describeImage(url);

        expect(result).toMatch(/^\[图片：第一行 第二行 ［注］ 长+…\]$/);
        expect(Array.from(result!.slice('[图片：'.length, -1))).toHaveLength(100);
      });

      it('[T-32] reads JPEG bytes from base64://, file:// and a local path alike', async () => {
        harness.model.reply(completion({ content: '一张照片' }));
        const jpeg = buildJpegMagic();
        const path = join(folder, 'photo.jpg');
        writeFileSync(path, jpeg);

        await expect(harness.service.describeImage(`base64://${jpeg.toString('base64')}`)).resolves.toBe('[图片：一张照片]');
        const parts = userParts(harness.modelCalls()[0]!.body);
        expect(parts[1]).toMatchObject({ image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,/) } });
        // Same bytes: the next two sources are answered from the cache.
        await expect(harness.service.describeImage(pathToFileURL(path).href)).resolves.toBe('[图片：一张照片]');
        await expect(harness.service.describeImage(path)).resolves.toBe('[图片：一张照片]');
        expect(harness.modelCalls()).toHaveLength(1);
      });
    });

    describe('when the same content was described before', () => {
      it('[T-32] answers from the cache without a model request, also for a new service on the same database', async () => {
        harness.model.reply(completion({ content: '一只橘猫' }));
        const url = harness.files.serve('/cat.png', { body: PNG });
        await harness.service.describeImage(url);

        await expect(harness.service.describeImage(url)).resolves.toBe('[图片：一只橘猫]');
        await expect(harness.build().describeImage(`base64://${PNG.toString('base64')}`)).resolves.toBe('[图片：一只橘猫]');

        expect(harness.modelCalls()).toHaveLength(1);
      });
    });

    describe('when something fails', () => {
      async function expectFailure(source: string, reason: RegExp): Promise<void> {
        await expect(harness.service.describeImage(source)).resolves.toBeNull();
        expect(harness.warned(reason)).toBe(true);
      }

      it('[T-32] resolves null for a download answered 404, and logs the status', async () => {
        await expectFailure(harness.files.url('/missing.png'), /download failed: HTTP 404/);
        expect(harness.modelCalls()).toHaveLength(0);
      });

      it('[T-32] refuses a body whose Content-Length is over image_max_bytes', async () => {
        await expectFailure(harness.files.serve('/big.png', { body: Buffer.concat([PNG, Buffer.alloc(100 * 1024)]) }), /too large: 10\d{4} bytes, over the image_max_bytes limit of 65536/);
        expect(harness.modelCalls()).toHaveLength(0);
      });

      it('[T-32] stops reading a chunked body once it passes image_max_bytes', async () => {
        const url = harness.files.serve('/endless.png', { body: Buffer.concat([PNG, Buffer.alloc(16 * 1024 * 1024)]), chunked: true });

        await expectFailure(url, /too large: more than that, over the image_max_bytes limit/);

        await expect(harness.files.requestsFor('/endless.png')[0]!.finished).resolves.toBe(false);
      });

      it('[T-32] refuses inline and local images over the limit before reading them', async () => {
        const path = join(folder, 'big.png');
        writeFileSync(path, Buffer.concat([PNG, Buffer.alloc(70 * 1024)]));
        await expectFailure(path, /too large: \d+ bytes/);
        await expectFailure(`base64://${Buffer.alloc(70 * 1024).toString('base64')}`, /too large: 71680 bytes/);
      });

      it('[T-32] resolves null for bytes that are not PNG, JPEG, GIF or WebP', async () => {
        await expectFailure(harness.files.serve('/notes.txt', { body: Buffer.from('plain text, not an image') }), /not an image/);
        expect(harness.modelCalls()).toHaveLength(0);
      });

      it('[T-32] resolves null for a missing file and an unsupported scheme', async () => {
        await expectFailure(join(folder, 'nothing-here.png'), /cannot read the file/);
        await expectFailure('ftp://example.com/a.png', /unsupported source scheme ftp/);
      });

      it('[T-32] resolves null when the download takes longer than image_download_timeout_s', async () => {
        const url = harness.files.serve('/slow.png', { body: PNG, stall: true });
        const result = harness.service.describeImage(url);
        await harness.files.receivedRequests(1);

        await harness.clock.advance(10_000);

        await expect(result).resolves.toBeNull();
        expect(harness.warned(/not loaded within 10 s/)).toBe(true);
      });

      it('[T-32] resolves null when the model answers HTTP 500, and logs it', async () => {
        harness.model.reply(text(500, '{"error":{"message":"vision backend down"}}'));
        await expectFailure(harness.files.serve('/cat.png', { body: PNG }), /HTTP 500.*vision backend down/);
      });

      it('[T-32] resolves null when the model gives an empty answer', async () => {
        harness.model.reply(completion({ content: '  \n ' }));
        await expectFailure(harness.files.serve('/cat.png', { body: PNG }), /empty answer/);
      });

      it('[T-32] resolves null when the model stalls past recognition_timeout_s, and closes the request', async () => {
        harness.model.reply(hang);
        const result = harness.service.describeImage(harness.files.serve('/cat.png', { body: PNG }));
        await harness.model.receivedRequests(1);

        await harness.clock.advance(29_999);
        expect(await Promise.race([result, 'pending'])).toBe('pending');
        await harness.clock.advance(1);

        await expect(result).resolves.toBeNull();
        expect(harness.warned(/no answer from the vision model within 30 s/)).toBe(true);
      });

      it('[T-32] caches no failure: the next call asks again and succeeds', async () => {
        harness.model.reply(json(400, { error: { message: 'bad image' } }), completion({ content: '第二次成功' }));
        const url = harness.files.serve('/cat.png', { body: PNG });

        await expect(harness.service.describeImage(url)).resolves.toBeNull();
        expect(harness.database.mediaCache.get('image', sha256(PNG))).toBeUndefined();
        await expect(harness.service.describeImage(url)).resolves.toBe('[图片：第二次成功]');
        expect(harness.modelCalls()).toHaveLength(2);
      });

      it('[T-32] never logs the image bytes, only a shortened source', async () => {
        harness.model.reply(text(500, 'down'));
        const inline = `base64://${PNG.toString('base64')}`;

        await harness.service.describeImage(inline);

        const logged = JSON.stringify(harness.records);
        expect(logged).not.toContain(PNG.toString('base64'));
        expect(harness.warnings().some((record) => record['source'] === `base64://(${PNG.toString('base64').length} chars)`)).toBe(true);
      });
    });
  });
});
