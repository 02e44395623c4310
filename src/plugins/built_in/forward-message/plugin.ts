/**
 * forward-message: lets the bot read QQ merged-forward messages (合并转发, OneBot `forward`
 * segments), which otherwise reach the chat as a bare `[聊天记录]`.
 *
 * How it works
 * - `observeInbound`: when a stored inbound message's raw OneBot event (`inbound.raw.message`,
 *   array form or CQ string `[CQ:forward,id=…]`) holds a `forward` segment, the plugin fetches
 *   the tree in the background with the platform action `get_forward_msg` `{ id }` (never
 *   blocking ingress; a failure is logged at warn with the reason and nothing is cached).
 *   Nested forwards are fetched too when they carry only an id (inline `data.content` nodes
 *   are used as they are), breadth first, up to `max_depth` layers, 300 nodes and 20 layers
 *   per tree. The flattened tree goes into a per-stream cache: the newest `cache_per_stream`
 *   trees, each expiring `cache_minutes` after it arrived (on the host's clock,
 *   `ctx.chat.clock`). Right away, recognition of the images of every layer starts in the
 *   background (`ctx.media.describeImage`, first 40 items per tree), and of the videos when
 *   they are in the host's watch-on-arrival range (`videosWatchedOnArrival`: private chat,
 *   an @ of the bot …; the others wait for a read, so a busy group's unread forwards do not
 *   cost video-model calls). The plugin keeps its own promises and passes no signal to
 *   `describeImage` / `describeVideo`, so a cancelled tool call never cancels the host's
 *   shared recognition task: it only stops waiting.
 * - `streamCapabilities`: `forward_message` only while the stream has a cached tree, so
 *   `read_forward_message` is offered only where there is something to read.
 * - `read_forward_message` (readonly): `offset` (default 0) and `index` (1 = the newest
 *   forward of the stream, 2 = the one before …). It renders the tree layer by layer as
 *   `昵称: 内容` lines; a nested forward shows as `[聊天记录，见第 N 层]`. Images and videos
 *   show their description when it is ready, else `[图片]` / `[视频]`. Before cutting the
 *   page it waits only for the recognitions of the items on that page (starting videos
 *   outside the watch range, and items past the first 40, only now), at most
 *   `ctx.media.maxWaitS` seconds, and stops waiting when the call is cancelled. Pages hold
 *   `page_chars` characters (default 3000, at most 3600, so that the page, its header and
 *   the hint stay under the host's default 4000-character observation cap; lower it with
 *   the host's `tools.observation_max_chars`). When more remains, the page ends with the
 *   `offset` to continue from (also in the result metadata as `next_offset`). An item's
 *   text is fixed the first time it is paged out (or skipped by a larger offset), so the
 *   offsets handed out stay valid while further recognitions finish.
 * - Tool timeout: `tools()` runs after the host has attached `ctx` (the plugin manager sets
 *   config and ctx before collecting tools), so the timeout is `ctx.media.maxWaitS({ images,
 *   videos })` plus 5 s. When that cannot be read (no media service wired: then the tool
 *   never waits on recognition) the static 60 s declared on the decorator stays: the host's
 *   default image deadline is 10 s download + 30 s recognition.
 * - Without a usable `ctx.media` (the host wired none, it throws, or the switches are off)
 *   the tool still works and keeps the placeholders; without `ctx.chat` nothing is fetched.
 *
 * Config (`config.toml`, generated from `ForwardMessageConfig`): `enabled` (true),
 * `page_chars` (3000, 500–3600), `cache_per_stream` (5, 1–20), `cache_minutes` (60),
 * `max_depth` (3, 1–5).
 *
 * What it accepts from the platform: see forward-tree.ts (`{ messages }`, `{ message }`,
 * `{ content }`, those under `data`, or a bare node list; nodes with `sender` + `message`
 * or the `{ type: 'node', data: { nickname, content } }` form; bodies as segment arrays or
 * CQ strings).
 */
import * as z from 'zod';
import {
  PluginConfig,
  ToolExecutionResult,
  ToolPlugin,
  systemClock,
  tool,
  type Clock,
  type Message,
  type ToolContext,
  type ToolDefinition,
  type ToolInvocation,
} from 'moonglass';
import { type ForwardMedia, type ForwardSource, type ForwardTree, fetchForwardTree, forwardSourcesOf } from './forward-tree.js';
import { type Piece, cutPage, documentLength, documentPieces, freezeUpTo, mediaInWindow } from './render-forward.js';

/** The capability this plugin contributes to a stream that has a cached forward. */
export const FORWARD_CAPABILITY = 'forward_message';
const TOOL_NAME = 'read_forward_message';
/** Most trees kept per stream (the config's upper bound, and the tool's `index` bound). */
const MAX_CACHE_PER_STREAM = 20;
/** Page size bound: the page plus header and hint must stay under the host's 4000-character cap. */
const MAX_PAGE_CHARS = 3600;
const MAX_NODES = 300;
const MAX_LAYERS = 20;
/** Recognitions started on arrival per tree; later items are recognised when their page is read. */
const EAGER_MEDIA_LIMIT = 40;
/** Longest one `get_forward_msg` may take. */
const FETCH_TIMEOUT_MS = 20_000;
const TIMEOUT_MARGIN_MS = 5_000;
/** The tool timeout when `ctx.media.maxWaitS` cannot be read (see the header). */
const FALLBACK_TOOL_TIMEOUT_MS = 60_000;
const SENDER_LABEL_MAX = 32;

export const ForwardMessageConfig = PluginConfig.extend({
  enabled: z.boolean().default(true).describe('是否启用合并转发读取；false 时宿主不会加载它'),
  page_chars: z
    .number()
    .int()
    .min(500)
    .max(MAX_PAGE_CHARS)
    .default(3000)
    .describe('read_forward_message 每页最多返回多少字；加上页头和续读提示须小于宿主的工具结果上限（默认 4000 字），所以最大 3600'),
  cache_per_stream: z
    .number()
    .int()
    .min(1)
    .max(MAX_CACHE_PER_STREAM)
    .default(5)
    .describe('每个会话最多缓存几条合并转发（只保留最新的几条）'),
  cache_minutes: z.number().positive().max(7 * 24 * 60).default(60).describe('合并转发收到后缓存多少分钟；过期后这个会话不再提供读取工具'),
  max_depth: z.number().int().min(1).max(5).default(3).describe('最多展开几层嵌套转发（1 表示只读最外层）'),
});

export type ForwardMessageConfig = z.output<typeof ForwardMessageConfig>;

/** One forward kept for a stream. */
interface CachedForward {
  /** `<message id>#<n>`: the n-th forward segment of that message. */
  key: string;
  messageId: string;
  /** Arrival order, for "newest first" whatever order the fetches finish in. */
  seq: number;
  /** When it arrived, on the plugin's clock (ms). */
  receivedAt: number;
  sender: string;
  tree: ForwardTree;
  pieces: Piece[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function clip(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

export class ForwardMessagePlugin extends ToolPlugin<ForwardMessageConfig> {
  static override configModel = ForwardMessageConfig;

  /** Cached forwards per stream, oldest first. */
  readonly #streams = new Map<string, CachedForward[]>();
  /** `<stream>\u0000<key>` of forwards being fetched. */
  readonly #inFlight = new Set<string>();
  #seq = 0;
  #unloaded = false;
  #mediaUnusableLogged = false;

  override tools(): ToolDefinition[] {
    const timeoutMs = this.#toolTimeoutMs();
    return super.tools().map((definition) => (definition.name === TOOL_NAME && timeoutMs !== undefined ? { ...definition, timeoutMs } : definition));
  }

  override async onLoad(): Promise<void> {
    this.ctx.logger.debug({ config: this.config }, 'forward-message ready');
  }

  override async onUnload(): Promise<void> {
    this.#unloaded = true;
    this.#streams.clear();
    this.#inFlight.clear();
  }

  override observeInbound(streamId: string, messageId: string, inbound: unknown): void {
    try {
      this.#sweep();
      const sources = forwardSourcesOf(isRecord(inbound) ? inbound['raw'] : undefined);
      if (sources.length === 0) return;
      if (this.ctx.chat === undefined) {
        this.ctx.logger.debug({ stream_id: streamId, message_id: messageId }, 'a forward arrived, but this host has no chat runtime to fetch it with');
        return;
      }
      for (const [index, source] of sources.entries()) void this.#fetch(streamId, messageId, index, source, inbound as Message);
    } catch (error) {
      this.ctx.logger.warn({ stream_id: streamId, message_id: messageId, reason: describeError(error) }, 'could not look at an inbound message for forwards');
    }
  }

  override streamCapabilities(streamId: string): string[] {
    return this.#entries(streamId).length > 0 ? [FORWARD_CAPABILITY] : [];
  }

  @tool({
    name: TOOL_NAME,
    description:
      '当有人发来合并转发的聊天记录（消息里显示为 [聊天记录]），而你需要知道里面说了什么时调用：按层返回其中每条消息的「昵称: 内容」，图片和视频会换成识别出的描述。内容较长时分页返回，按结果末尾给出的 offset 继续读。',
    parameters: z.object({
      offset: z.number().int().min(0).default(0).describe('从全文第几个字开始读；第一次读用 0，续读时用上一页末尾给出的 offset'),
      index: z
        .number()
        .int()
        .min(1)
        .max(MAX_CACHE_PER_STREAM)
        .default(1)
        .describe('读本会话里第几新的合并转发：1 是最新的一条，2 是再早一条，以此类推'),
    }),
    sideEffect: 'readonly',
    capabilities: [FORWARD_CAPABILITY],
    timeoutMs: FALLBACK_TOOL_TIMEOUT_MS,
  })
  async readForwardMessage(invocation: ToolInvocation, context: ToolContext): Promise<ToolExecutionResult> {
    const { offset, index } = invocation.arguments as { offset: number; index: number };
    const entries = this.#entries(context.streamId);
    if (entries.length === 0) return ToolExecutionResult.fail(invocation.toolName, '这个会话里没有可读的合并转发（可能已经过期）');
    const entry = entries[entries.length - index];
    if (entry === undefined) {
      return ToolExecutionResult.fail(invocation.toolName, `这个会话里只缓存了 ${entries.length} 条合并转发，index 最大为 ${entries.length}`);
    }
    const pageChars = this.config.page_chars;
    const lengthNow = documentLength(entry.pieces);
    if (offset >= lengthNow) {
      return ToolExecutionResult.fail(invocation.toolName, `offset ${offset} 超出范围：这条合并转发全文约 ${lengthNow} 字，请从 0 或上一页给出的 offset 开始读`);
    }

    // Fix what precedes the page, then wait only for the recognitions on it.
    freezeUpTo(entry.pieces, offset);
    const onPage = mediaInWindow(entry.pieces, offset, pageChars);
    for (const media of onPage) this.#recognize(media);
    await this.#waitFor(onPage, context.signal);
    if (context.signal.aborted) return ToolExecutionResult.fail(invocation.toolName, '读取已取消');

    const page = cutPage(entry.pieces, offset, pageChars);
    const { tree } = entry;
    const older = index === 1 && entries.length > 1 ? `；本会话还有 ${entries.length - 1} 条更早的合并转发，可用 index 读取` : '';
    const which = index > 1 ? `本会话第 ${index} 新的一条，` : '';
    const header =
      `合并转发的聊天记录（${which}${clip(entry.sender, SENDER_LABEL_MAX)} 发来，共 ${tree.layers.length} 层 ${tree.nodeCount} 条消息${older}）\n` +
      `第 ${page.start}–${page.start + page.text.length} 字，全文约 ${page.total} 字：\n`;
    const footer =
      page.nextOffset === undefined
        ? '（已读到结尾）'
        : `（未读完：调用 ${TOOL_NAME} 并传 offset=${page.nextOffset}${index > 1 ? `、index=${index}` : ''} 继续读）`;
    const text = page.text.endsWith('\n') ? page.text : `${page.text}\n`;
    return ToolExecutionResult.ok(invocation.toolName, header + text + footer, {
      index,
      offset: page.start,
      next_offset: page.nextOffset ?? null,
      total_chars: page.total,
      message_id: entry.messageId,
    });
  }

  get #clock(): Clock {
    return this.ctx.chat?.clock ?? systemClock;
  }

  #toolTimeoutMs(): number | undefined {
    try {
      const seconds = this.ctx.media.maxWaitS({ images: true, videos: true });
      if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0) return Math.ceil(seconds * 1000) + TIMEOUT_MARGIN_MS;
    } catch {
      // ctx not attached yet, or no media service wired: the decorator's static value stays.
    }
    return undefined;
  }

  /** The stream's live forwards, oldest first, after dropping the expired ones. */
  #entries(streamId: string): CachedForward[] {
    const entries = this.#streams.get(streamId);
    if (entries === undefined) return [];
    const cutoff = this.#clock.now() - this.config.cache_minutes * 60_000;
    const live = entries.filter((entry) => entry.receivedAt > cutoff);
    if (live.length === 0) this.#streams.delete(streamId);
    else if (live.length !== entries.length) this.#streams.set(streamId, live);
    return live;
  }

  /** Drops expired forwards of every stream (bounded memory for streams nobody asks about). */
  #sweep(): void {
    for (const streamId of [...this.#streams.keys()]) this.#entries(streamId);
  }

  async #fetch(streamId: string, messageId: string, index: number, source: ForwardSource, inbound: Message): Promise<void> {
    const key = `${messageId}#${index}`;
    const flightKey = `${streamId}\u0000${key}`;
    if (this.#inFlight.has(flightKey) || this.#entries(streamId).some((entry) => entry.key === key)) return;
    this.#inFlight.add(flightKey);
    const seq = ++this.#seq;
    const receivedAt = this.#clock.now();
    const { logger } = this.ctx;
    try {
      const chat = this.ctx.chat!;
      const tree = await fetchForwardTree(source, {
        // A forward id is known only to the QQ client the message came through: ask that account's.
        fetch: (id) => this.#withDeadline(chat.callPlatform('get_forward_msg', { id }, accountOf(inbound)), FETCH_TIMEOUT_MS, `get_forward_msg 超过 ${FETCH_TIMEOUT_MS / 1000} 秒没有回应`),
        maxDepth: this.config.max_depth,
        maxNodes: MAX_NODES,
        maxLayers: MAX_LAYERS,
        onNestedFailure: (id, reason) =>
          logger.warn({ stream_id: streamId, message_id: messageId, forward_id: id ?? null, reason }, 'could not fetch a nested forward (get_forward_msg)'),
      });
      if (this.#unloaded) return;
      const sender = [inbound.senderCard, inbound.senderName, inbound.senderId].find((name) => typeof name === 'string' && name.trim() !== '') ?? '某人';
      const entries = [...this.#entries(streamId), { key, messageId, seq, receivedAt, sender, tree, pieces: documentPieces(tree) }];
      entries.sort((a, b) => a.seq - b.seq);
      this.#streams.set(streamId, entries.slice(-this.config.cache_per_stream));
      this.#recognizeOnArrival(tree, inbound);
      logger.debug({ stream_id: streamId, message_id: messageId, layers: tree.layers.length, nodes: tree.nodeCount, media: tree.media.length }, 'forward cached');
    } catch (error) {
      logger.warn({ stream_id: streamId, message_id: messageId, forward_id: source.id ?? null, reason: describeError(error) }, 'could not fetch a forwarded message (get_forward_msg)');
    } finally {
      this.#inFlight.delete(flightKey);
    }
  }

  #withDeadline<T>(work: Promise<T>, ms: number, reason: string): Promise<T> {
    const clock = this.#clock;
    return new Promise<T>((resolve, reject) => {
      const timer = clock.setTimeout(() => reject(new Error(reason)), ms);
      work.then(
        (value) => {
          clock.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clock.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  #recognizeOnArrival(tree: ForwardTree, inbound: Message): void {
    let videosInRange = false;
    try {
      videosInRange = tree.media.some((media) => media.kind === 'video') && this.ctx.media.videosWatchedOnArrival(inbound);
    } catch {
      // No usable media access: #recognize below notices (and logs) it for images.
    }
    for (const media of tree.media.slice(0, EAGER_MEDIA_LIMIT)) {
      if (media.kind === 'image' || videosInRange) this.#recognize(media);
    }
  }

  #available(kind: ForwardMedia['kind']): boolean {
    try {
      return kind === 'image' ? this.ctx.media.imagesAvailable() === true : this.ctx.media.videosAvailable() === true;
    } catch (error) {
      if (!this.#mediaUnusableLogged) {
        this.#mediaUnusableLogged = true;
        this.ctx.logger.info({ reason: describeError(error) }, 'ctx.media is not usable; images and videos in forwards keep their placeholders');
      }
      return false;
    }
  }

  /** Starts the recognition of one item once, in a promise of the plugin's own. */
  #recognize(media: ForwardMedia): void {
    if (media.recognition !== undefined || media.shown !== undefined || !this.#available(media.kind)) return;
    const access = this.ctx.media;
    const { logger } = this.ctx;
    media.recognition = (async (): Promise<string | null> => {
      try {
        return media.kind === 'image' ? await access.describeImage(media.url) : await access.describeVideo(media.url, media.file);
      } catch (error) {
        logger.debug({ kind: media.kind, url: media.url, reason: describeError(error) }, 'recognition of forwarded media failed');
        return null;
      }
    })().then((value) => {
      media.result = typeof value === 'string' && value.trim() !== '' ? value : null;
      return media.result;
    });
  }

  /** Waits for these items' recognitions, at most `ctx.media.maxWaitS`, until `signal` aborts. */
  async #waitFor(items: readonly ForwardMedia[], signal: AbortSignal): Promise<void> {
    const pending = items.filter((media) => media.recognition !== undefined && media.result === undefined);
    if (pending.length === 0 || signal.aborted) return;
    let seconds: number;
    try {
      seconds = this.ctx.media.maxWaitS({ images: pending.some((media) => media.kind === 'image'), videos: pending.some((media) => media.kind === 'video') });
    } catch {
      return;
    }
    if (!(typeof seconds === 'number' && seconds > 0)) return;
    const clock = this.#clock;
    await new Promise<void>((resolve) => {
      let timer: ReturnType<Clock['setTimeout']> | undefined;
      const done = (): void => {
        if (timer !== undefined) clock.clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      timer = clock.setTimeout(done, Math.ceil(seconds * 1000));
      signal.addEventListener('abort', done, { once: true });
      void Promise.all(pending.map((media) => media.recognition)).then(done);
    });
  }
}

/** The bot account a stored inbound message arrived on, when the adapter named one. */
function accountOf(message: Message): string | null {
  const account = message.extra['account'];
  return typeof account === 'string' && account !== '' ? account : null;
}
