import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import { completion } from '../llm/support/fake-openai-server.js';
import { buildMp4 } from './support/build-mp4.js';
import { buildPng } from './support/build-png.js';
import { createMediaHarness, type MediaHarness } from './support/media-harness.js';

// Issue 13 item 7: inbound media cannot reach private places. A chat message must not make the
// host read its own files or send GET requests to internal services.

const PNG = buildPng();

describe(MediaService, () => {
  let harness: MediaHarness;
  let folder: string;
  let imagePath: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'moonglass-private-'));
    imagePath = join(folder, 'secret.png');
    writeFileSync(imagePath, PNG);
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });
  afterEach(async () => {
    await harness.close();
  });

  describe('by default (allow_private_addresses = false)', () => {
    async function expectRefused(attempt: () => Promise<string | null>, reason: RegExp): Promise<void> {
      harness.model.reply(completion({ content: '不该出现的描述' }));
      await expect(attempt()).resolves.toBeNull();
      expect(harness.warned(reason)).toBe(true);
      expect(harness.modelCalls()).toHaveLength(0);
      expect(harness.files.requests).toHaveLength(0);
    }

    it('[issue 13.7] does not read a file:// image or a local path, and logs why', async () => {
      harness = await createMediaHarness({ media: { allow_private_addresses: false } });

      await expectRefused(() => harness.service.describeImage(pathToFileURL(imagePath).href), /refused to read a file:\/\/ URL/);
      await expectRefused(() => harness.service.describeImage(imagePath), /refused to read a local path/);
    });

    it('[issue 13.7] does not download an image from loopback, in any spelling', async () => {
      harness = await createMediaHarness({ media: { allow_private_addresses: false } });
      const url = harness.files.serve('/cat.png', { body: PNG });
      const port = new URL(url).port;

      await expectRefused(() => harness.service.describeImage(url), /private place: 127\.0\.0\.1, a loopback address/);
      await expectRefused(() => harness.service.describeImage(`http://2130706433:${port}/cat.png`), /127\.0\.0\.1, a loopback address/);
      await expectRefused(() => harness.service.describeImage(`http://0x7f.1:${port}/cat.png`), /127\.0\.0\.1, a loopback address/);
      await expectRefused(() => harness.service.describeImage(`http://[::ffff:127.0.0.1]:${port}/cat.png`), /loopback address, in IPv4-mapped/);
    });

    it('[issue 13.7] does not download from a public-looking name that resolves to 127.0.0.1', async () => {
      harness = await createMediaHarness({ media: { allow_private_addresses: false } });
      const port = new URL(harness.files.serve('/cat.png', { body: PNG })).port;
      const service = harness.build({ lookup: async () => ['127.0.0.1'] });

      await expectRefused(() => service.describeImage(`http://images.example.com:${port}/cat.png`), /images\.example\.com resolves to 127\.0\.0\.1/);
    });

    it('[issue 13.7] does not read or hand on a video on loopback', async () => {
      harness = await createMediaHarness({ media: { allow_private_addresses: false } });
      const url = harness.files.serve('/clip.mp4', { body: buildMp4({ durationS: 42 }) });

      await expectRefused(() => harness.service.describeVideo(url, 'clip.mp4'), /private place: 127\.0\.0\.1/);
    });

    it('[issue 13.7] refuses data: and other schemes as sources, yet takes inline base64:// images, which reach no place', async () => {
      harness = await createMediaHarness({ media: { allow_private_addresses: false } });

      await expectRefused(() => harness.service.describeImage(`data:image/png;base64,${PNG.toString('base64')}`), /unsupported source scheme data/);
      await expectRefused(() => harness.service.describeVideo('file:///srv/clip.mp4'), /watched by its http\(s\):\/\/ URL/);
      harness.model.reply(completion({ content: '一张内联图片' }));
      await expect(harness.service.describeImage(`base64://${PNG.toString('base64')}`)).resolves.toBe('[图片：一张内联图片]');
    });
  });

  describe('with allow_private_addresses = true (a LAN or same-machine setup)', () => {
    it('[issue 13.7] describes the image on the loopback server, through a redirect, and a local file; turned off by a reload, they are refused', async () => {
      harness = await createMediaHarness({ media: { allow_private_addresses: true } });
      harness.model.reply(completion({ content: '局域网里的猫' }));
      harness.files.serve('/cat.png', { body: PNG });
      const url = harness.files.redirect('/go', '/cat.png');

      await expect(harness.service.describeImage(url)).resolves.toBe('[图片：局域网里的猫]');
      // Same bytes: answered from the cache, but only after the file was read.
      await expect(harness.service.describeImage(imagePath)).resolves.toBe('[图片：局域网里的猫]');
      expect(harness.files.requests.map((request) => request.path)).toEqual(['/go', '/cat.png']);

      // The setting is read on every call, as a config reload leaves it.
      harness.config.allow_private_addresses = false;

      await expect(harness.service.describeImage(url)).resolves.toBeNull();
      await expect(harness.service.describeImage(imagePath)).resolves.toBeNull();
      expect(harness.files.requests).toHaveLength(2);
      expect(harness.warned(/private place: 127\.0\.0\.1/)).toBe(true);
      expect(harness.warned(/refused to read a local path/)).toBe(true);
    });
  });
});
