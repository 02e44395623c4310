import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TestHost } from '../../src/testing/create-test-host.js';
import { toolReply, useTestHosts } from '../support/ndfc.js';
import { useTempDir } from '../support/temp-dir.js';

/** The stream a message went to. */
function streamOf(outcome: Awaited<ReturnType<TestHost['adapter']['send']>>): string {
  if (outcome.status !== 'delivered') throw new Error(`the message was not delivered: ${outcome.status}`);
  return outcome.message.streamId;
}

describe('NDFC send_media (issue 17 item 3)', () => {
  const start = useTestHosts();
  const tempDir = useTempDir();

  /** A host whose model calls send_media once with `args` (or what they are for the bot's data folder), then waits. */
  async function hostCalling(args: Record<string, unknown> | ((dataDir: string) => Record<string, unknown>)): Promise<TestHost> {
    let test: TestHost | undefined;
    let asked = false;
    test = await start({
      script: () => {
        if (asked) return toolReply([]);
        asked = true;
        return toolReply([{ name: 'send_media', args: typeof args === 'function' ? args(test!.host.info.dataDir) : args }]);
      },
    });
    return test;
  }

  /** Sends one message, lets the turn (and its typing) finish, and gives back the stream and its send_media calls. */
  async function converse(test: TestHost, text = '发张图') {
    const streamId = streamOf(await test.adapter.send(text));
    await test.settle(15_000);
    const calls = test.host.chat.database.toolCalls.recent(streamId, 10).filter((call) => call.toolName === 'send_media');
    return { streamId, calls };
  }

  /** Writes a file of `bytes` bytes into the bot's data folder at `relativePath`. */
  function dataFile(test: TestHost, relativePath: string, bytes: Buffer): string {
    const path = join(test.host.info.dataDir, relativePath);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, bytes);
    return path;
  }

  it('[issue 17] is an NDFC action the model is offered, beside send_text', async () => {
    const test = await hostCalling({ kind: 'image', file: 'https://img.example/cat.png' });
    await converse(test);
    expect(test.host.registry.list({ kind: 'action', pluginId: 'neo_default_chatter' }).map((record) => record.name)).toContain('send_media');
    const offered = test.model.calls[0]!.tools.map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(['send_text', 'send_media']));
  });

  it('[issue 17] an http(s) picture with a caption goes out as one delivery (text, then the image); the stored message reads "caption [图片]"', async () => {
    const test = await hostCalling({ kind: 'image', file: 'https://img.example/cat.png', caption: '看这只猫', reply_to: 'in-1' });
    const { streamId, calls } = await converse(test);
    expect(calls).toEqual([expect.objectContaining({ success: true, observation: '已发送' })]);
    expect(test.adapter.sent).toEqual([
      expect.objectContaining({ content: '看这只猫', replyTo: 'in-1', media: [{ kind: 'image', file: 'https://img.example/cat.png' }] }),
    ]);
    const outbound = test.host.chat.database.messages.history(streamId, 10).filter((message) => message.direction === 'outbound');
    expect(outbound).toEqual([expect.objectContaining({ content: '看这只猫', processedPlainText: '看这只猫 [图片]', messageType: 'mixed' })]);
  });

  it('[issue 17] is typed like send_text: a 4-character caption goes out 2 s (0.5 s a character) after the message it answers', async () => {
    const test = await hostCalling({ kind: 'image', file: 'https://img.example/cat.png', caption: '一二三四' });
    const sentAt: number[] = [];
    const deliver = test.adapter.deliver.bind(test.adapter);
    test.adapter.deliver = (delivery) => (sentAt.push(test.clock.now()), deliver(delivery));
    const arrival = test.clock.now();
    await converse(test);
    // settle moves time in 50 ms steps.
    expect(sentAt).toHaveLength(1);
    expect(sentAt[0]! - arrival).toBeGreaterThanOrEqual(2_000);
    expect(sentAt[0]! - arrival).toBeLessThanOrEqual(2_100);
  });

  it('[issue 17] a picture without a caption is delivered with empty text, stored as "[图片]"', async () => {
    const test = await hostCalling({ kind: 'image', file: 'http://img.example/dog.gif' });
    const { streamId } = await converse(test);
    expect(test.adapter.sent).toEqual([expect.objectContaining({ content: '', media: [{ kind: 'image', file: 'http://img.example/dog.gif' }] })]);
    expect(test.host.chat.database.messages.history(streamId, 10).filter((message) => message.direction === 'outbound').map((message) => message.processedPlainText)).toEqual([
      '[图片]',
    ]);
  });

  it('[issue 17] a voice clip with a caption: the caption (with the reply) goes first on its own, the clip after it alone', async () => {
    const test = await hostCalling({ kind: 'record', file: 'https://audio.example/hi.mp3', caption: '听听', reply_to: 'in-1' });
    const { calls } = await converse(test);
    expect(calls).toEqual([expect.objectContaining({ success: true })]);
    expect(test.adapter.sent.map(({ content, replyTo, media }) => ({ content, replyTo, media }))).toEqual([
      { content: '听听', replyTo: 'in-1', media: undefined },
      { content: '', replyTo: null, media: [{ kind: 'record', file: 'https://audio.example/hi.mp3' }] },
    ]);
  });

  it('[issue 17] a small file in the data folder goes inline as base64:// with its bytes', async () => {
    const test = await hostCalling({ kind: 'image', file: 'media/cat.png' });
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    dataFile(test, 'media/cat.png', bytes);
    await converse(test);
    expect(test.adapter.sent).toEqual([expect.objectContaining({ media: [{ kind: 'image', file: `base64://${bytes.toString('base64')}` }] })]);
  });

  it('[issue 17] a file over 1 MiB goes as the file:/// URL of its path; an absolute path inside the data folder is taken too', async () => {
    const test = await hostCalling((dataDir) => ({ kind: 'video', file: join(dataDir, 'media', 'clip.mp4') }));
    const path = dataFile(test, 'media/clip.mp4', Buffer.alloc(1024 * 1024 + 1, 7));
    await converse(test);
    expect(test.adapter.sent).toEqual([expect.objectContaining({ content: '', media: [{ kind: 'video', file: pathToFileURL(realpathSync(path)).href }] })]);
  });

  it.each([
    [{ kind: 'image', file: 'ftp://files.example/cat.png' }, /不支持「ftp:」地址/],
    [{ kind: 'image', file: 'file:///etc/passwd' }, /不支持「file:」地址/],
    [{ kind: 'image', file: 'media/../../secret.png' }, /路径不能包含「\.\.」/],
    [{ kind: 'image', file: '/etc/hostname.png' }, /只能发送机器人数据目录里的文件/],
    [{ kind: 'image', file: 'media/missing.png' }, /文件不存在：media\/missing\.png/],
    [{ kind: 'image', file: 'moonglass.db' }, /moonglass\.db 不是图片文件/],
  ])('[issue 17] %o is refused as a tool failure the model can read (%s), and nothing is sent', async (args, reason) => {
    const test = await hostCalling(args);
    const { calls } = await converse(test);
    expect(calls).toEqual([expect.objectContaining({ success: false, errorMessage: expect.stringMatching(reason) })]);
    expect(test.adapter.sent).toEqual([]);
  });

  it('[issue 17] a symlink in the data folder that leads out of it is refused', async () => {
    const outside = join(tempDir(), 'outside.png');
    writeFileSync(outside, Buffer.from([1, 2, 3]));
    const test = await hostCalling({ kind: 'image', file: 'media/link.png' });
    mkdirSync(join(test.host.info.dataDir, 'media'), { recursive: true });
    symlinkSync(realpathSync(outside), join(test.host.info.dataDir, 'media', 'link.png'));
    const { calls } = await converse(test);
    expect(calls).toEqual([expect.objectContaining({ success: false, errorMessage: expect.stringMatching(/指向数据目录之外/) })]);
    expect(test.adapter.sent).toEqual([]);
  });
});
