// The plugin under a plugin manager built directly, so that ctx.media can be a fake (the test
// host does not wire a media service yet) and ctx.chat a stand-in with the platform call.
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatRuntime } from '../../../src/chatter/chat-runtime.js';
import { PluginScope } from '../../../src/kernel/scope/plugin-scope.js';
import type { InboundForWatchRange, PluginMediaAccess } from '../../../src/media/media-types.js';
import { PluginManager } from '../../../src/plugin-system/plugin-manager.js';
import { UNWIRED_SERVICES } from '../../../src/plugin-system/unwired-services.js';
import { ToolRegistry } from '../../../src/tools/tool-registry.js';
import { createTestRegistry } from '../../support/registry.js';
import { projectRoot, useProjectTempDir } from '../../support/temp-dir.js';
import { INNER, OUTER, forwardServer, groupForwardEvent, privateForwardEvent } from './fixtures.js';

const PLUGIN_DIR = join(projectRoot, 'src/plugins/built_in/forward-message');
/** The source copy's config.toml as it stands: a local `npm start` may have written one there. */
const sourceConfigStamp = () => (existsSync(join(PLUGIN_DIR, 'config.toml')) ? statSync(join(PLUGIN_DIR, 'config.toml')).mtimeMs : 'absent');
const STREAM = 'qq:private:10001';
const CAT = 'https://img.example/cat.jpg';

interface Deferred {
  promise: Promise<string | null>;
  resolve(value: string | null): void;
}

function deferred(): Deferred {
  let resolve!: (value: string | null) => void;
  const promise = new Promise<string | null>((done) => (resolve = done));
  return { promise, resolve };
}

/** A media access whose recognitions finish when the test says so. */
class FakeMedia implements PluginMediaAccess {
  readonly calls: string[] = [];
  readonly pending = new Map<string, Deferred>();
  throwing = false;

  describeImage(source: string): Promise<string | null> {
    this.calls.push(source);
    if (this.throwing) throw new Error('vision model exploded');
    return this.#deferred(source).promise;
  }
  describeVideo(url: string, contentFileName?: string): Promise<string | null> {
    this.calls.push(`video ${url} ${contentFileName ?? ''}`.trim());
    return this.#deferred(url).promise;
  }
  imagesAvailable(): boolean {
    return true;
  }
  videosAvailable(): boolean {
    return true;
  }
  videosWatchedOnArrival(inbound: InboundForWatchRange): boolean {
    return inbound.chatType === 'private' || inbound.extra['mentions_bot'] === true;
  }
  maxWaitS(): number {
    return 40;
  }
  finish(url: string, text: string | null): void {
    this.#deferred(url).resolve(text);
  }
  #deferred(key: string): Deferred {
    let entry = this.pending.get(key);
    if (entry === undefined) this.pending.set(key, (entry = deferred()));
    return entry;
  }
}

const VIDEO_TREE = {
  messages: [
    { sender: { user_id: 7, nickname: '小周' }, message: [{ type: 'video', data: { file: 'abcd1234.mp4', url: 'https://video.example/v.mp4' } }] },
  ],
};

describe('forward-message with a media service (plugin manager built directly)', () => {
  const workDir = useProjectTempDir();

  async function load(media: PluginMediaAccess | undefined, trees: Record<string, unknown> = { 'outer-1': OUTER, 'inner-1': INNER }) {
    const base = createTestRegistry();
    const root = join(workDir(), 'built-in');
    mkdirSync(root, { recursive: true });
    cpSync(PLUGIN_DIR, join(root, 'forward-message'), { recursive: true, filter: (source) => basename(source) !== 'config.toml' });
    const tools = new ToolRegistry({ clock: base.clock, logger: base.logger, isReversibleEnabled: () => false });
    const serve = forwardServer(trees);
    const platformCalls: unknown[] = [];
    const chat = {
      clock: base.clock,
      callPlatform: async (action: string, params: Readonly<Record<string, unknown>> = {}) => {
        platformCalls.push({ action, params });
        return serve(params);
      },
    } as unknown as ChatRuntime;
    const manager = new PluginManager({
      roots: [{ path: root, builtIn: true }],
      registry: base.registry,
      bus: base.bus,
      tools,
      logger: base.logger,
      clock: base.clock,
      host: { version: '0.1.0', configDir: join(root, '..', 'config'), dataDir: join(root, '..', 'data') },
      forceCompatibility: false,
      chat,
      ...(media === undefined ? {} : { services: { mcp: UNWIRED_SERVICES.mcp, media: () => media } }),
      createScope: (id) => new PluginScope(id, base.logger.child({ plugin: id })),
    });
    await manager.loadAll();
    const observe = async (raw: unknown, options: { chatType?: 'private' | 'group'; messageId?: string; stream?: string } = {}) => {
      const chatType = options.chatType ?? 'private';
      manager.observeInbound(options.stream ?? STREAM, options.messageId ?? 'm1', {
        messageId: options.messageId ?? 'm1',
        streamId: options.stream ?? STREAM,
        raw,
        chatType,
        extra: { mentions_bot: false },
        processedPlainText: '[聊天记录]',
        senderName: '阿明',
        senderCard: null,
        senderId: '10001',
      });
      await base.clock.advance(0);
    };
    const read = (args: Record<string, unknown> = {}, stream = STREAM) =>
      tools.execute({ toolName: 'read_forward_message', callId: 'c', arguments: args }, { streamId: stream, signal: new AbortController().signal, capabilities: new Set(['forward_message']) });
    return { ...base, manager, tools, observe, read, platformCalls, root };
  }

  it('derives the tool timeout from ctx.media.maxWaitS plus a margin; without media keeps the static 60 s', async () => {
    const wired = await load(new FakeMedia());
    expect(wired.tools.get('read_forward_message')!.definition.timeoutMs).toBe(45_000);
    expect(wired.tools.get('read_forward_message')!.definition.capabilities).toEqual(['forward_message']);
    expect(wired.tools.get('read_forward_message')!.definition.sideEffect).toBe('readonly');
    const unwired = await load(undefined);
    expect(unwired.tools.get('read_forward_message')!.definition.timeoutMs).toBe(60_000);
  });

  it('is on by default and generates a commented config.toml in its (copied) folder, never in the source folder', async () => {
    const sourceBefore = sourceConfigStamp();
    const { root, manager } = await load(undefined);
    expect(manager.get('forward-message')).toBeDefined();
    const text = readFileSync(join(root, 'forward-message', 'config.toml'), 'utf8');
    expect(text).toContain('# 是否启用合并转发读取；false 时宿主不会加载它\nenabled = true');
    expect(text).toMatch(/# read_forward_message 每页最多返回多少字[^\n]*\npage_chars = 3000/);
    expect(text).toContain('# 每个会话最多缓存几条合并转发（只保留最新的几条）\ncache_per_stream = 5');
    expect(text).toMatch(/cache_minutes = 60\n/);
    expect(text).toMatch(/max_depth = 3\n/);
    expect(sourceConfigStamp()).toBe(sourceBefore);
  });

  it('starts image recognition on arrival, in the background; the read waits for it and shows the description', async () => {
    const media = new FakeMedia();
    const { observe, read, clock } = await load(media);
    await observe(privateForwardEvent('outer-1'));
    expect(media.calls).toEqual([CAT]); // started before anyone asked to read

    const reading = read();
    await clock.advance(1_000);
    media.finish(CAT, '[图片：一只橘猫趴在键盘上]');
    const result = await reading;
    expect(result.success).toBe(true);
    expect(result.observation).toContain('小红: [图片：一只橘猫趴在键盘上]看这只猫');
    expect(media.calls).toEqual([CAT]); // the read reused the recognition started on arrival
  });

  it('waits at most maxWaitS for a recognition, then keeps the placeholder (fixed for that page, so offsets stay valid)', async () => {
    const media = new FakeMedia();
    const { observe, read, clock } = await load(media);
    await observe(privateForwardEvent('outer-1'));
    let done = false;
    const reading = read().then((result) => ((done = true), result));
    await clock.advance(39_000);
    expect(done).toBe(false);
    await clock.advance(1_000);
    const result = await reading;
    expect(result.observation).toContain('小红: [图片]看这只猫');
    media.finish(CAT, '[图片：来晚了]');
    await clock.advance(0);
    expect((await read()).observation).toContain('小红: [图片]看这只猫');
  });

  it('a cancelled read stops waiting without cancelling the recognition; the next read shows the description', async () => {
    const media = new FakeMedia();
    const { observe, tools, clock } = await load(media);
    await observe(privateForwardEvent('outer-1'));
    const controller = new AbortController();
    const context = { streamId: STREAM, signal: controller.signal, capabilities: new Set(['forward_message']) };
    const reading = tools.execute({ toolName: 'read_forward_message', callId: 'c', arguments: {} }, context);
    await clock.advance(1_000);
    controller.abort(new DOMException('回合被打断', 'AbortError'));
    expect((await reading).success).toBe(false);
    media.finish(CAT, '[图片：一只橘猫]');
    const again = await tools.execute(
      { toolName: 'read_forward_message', callId: 'd', arguments: {} },
      { ...context, signal: new AbortController().signal },
    );
    expect(again.observation).toContain('小红: [图片：一只橘猫]看这只猫');
    expect(media.calls).toEqual([CAT]);
  });

  it('a failed (null) or throwing recognition keeps the placeholder and the tool keeps working', async () => {
    const media = new FakeMedia();
    const first = await load(media);
    await first.observe(privateForwardEvent('outer-1'));
    media.finish(CAT, null);
    expect((await first.read()).observation).toContain('小红: [图片]看这只猫');

    const throwing = new FakeMedia();
    throwing.throwing = true;
    const second = await load(throwing);
    await second.observe(privateForwardEvent('outer-1'));
    const result = await second.read();
    expect(result).toMatchObject({ success: true });
    expect(result.observation).toContain('小红: [图片]看这只猫');
    expect(second.manager.get('forward-message')).toBeDefined();
  });

  it('videos in the watch-on-arrival range start on arrival; others start only when their page is read', async () => {
    const media = new FakeMedia();
    const { observe, read, clock } = await load(media, { v: VIDEO_TREE });
    await observe(groupForwardEvent('v'), { chatType: 'group', stream: 'qq:group:555', messageId: 'g1' });
    expect(media.calls).toEqual([]); // a group message without an @: outside the range

    const reading = read({}, 'qq:group:555');
    await clock.advance(0);
    expect(media.calls).toEqual(['video https://video.example/v.mp4 abcd1234.mp4']);
    media.finish('https://video.example/v.mp4', '[视频：一段猫咪跳舞的视频]');
    expect((await reading).observation).toContain('小周: [视频：一段猫咪跳舞的视频]');

    await observe(privateForwardEvent('v'), { messageId: 'p1' });
    expect(media.calls).toHaveLength(2); // private: in range, started on arrival
  });

  it('without a media service, the read keeps placeholders and does not wait', async () => {
    const { observe, read, records } = await load(undefined);
    await observe(privateForwardEvent('outer-1'));
    const result = await read();
    expect(result.observation).toContain('小红: [图片]看这只猫');
    expect(records.filter((record) => record.msg === 'ctx.media is not usable; images and videos in forwards keep their placeholders')).toHaveLength(1);
  });
});
