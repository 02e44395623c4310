// Reading OneBot merged-forward messages into a flat tree of layers.
//
// Accepted shapes (lenient on purpose: OneBot implementations disagree):
// - a forward segment: array form `{ type: 'forward', data: { id, content? } }` or the CQ form
//   `[CQ:forward,id=…]`. When `data.content` already holds the nodes (NapCat can inline
//   them), they are used and nothing is fetched; otherwise the id is fetched.
// - the `get_forward_msg` answer: `{ messages: [...] }`, `{ message: [...] }`, `{ content: [...] }`,
//   the same wrapped once more in `{ data: ... }`, or the node list itself.
// - a node: `{ sender: { user_id, nickname, card? }, time, message | content | raw_message }`,
//   or the sending form `{ type: 'node', data: { user_id | uin, nickname | name, content } }`.
//   The body is a segment array or a CQ string; a `forward` segment in it is the next layer.
// - media: `image` / `video` segments with `data.url` (or a URL in `data.file`).

/** One OneBot message segment. */
export interface Segment {
  type: string;
  data: Record<string, unknown>;
}

/** An image or video inside the forwarded messages, with its recognition once started. */
export interface ForwardMedia {
  readonly kind: 'image' | 'video';
  readonly url: string;
  /** The platform's content file name (an MD5 on QQ): the video cache key. */
  readonly file?: string;
  /** The recognition; never rejects (resolves to the description or null). Unset until started. */
  recognition?: Promise<string | null>;
  /** The recognition's result once it settled: the description, or null when there is none. */
  result?: string | null;
  /** The text this item showed when it was first paged out; fixed so that offsets stay valid. */
  shown?: string;
}

/** A piece of a forwarded message's body. */
export type ForwardPart =
  | { type: 'text'; text: string }
  | { type: 'media'; media: ForwardMedia }
  /** A nested forward: `layer` is the layer number it was flattened into (0: not expanded, see `note`). */
  | { type: 'layer'; layer: number; note?: string };

export interface ForwardNode {
  sender: string;
  parts: ForwardPart[];
}

export interface ForwardLayer {
  /** 1 for the outer forward; nested ones are numbered in breadth-first order. */
  number: number;
  /** 1 for the outer forward. */
  depth: number;
  /** The layer that holds this one, and who sent it there. */
  parent?: { layer: number; sender: string };
  nodes: ForwardNode[];
  /** Nodes left out by the node limit. */
  omitted: number;
  /** Why this (nested) layer could not be read. */
  failure?: string;
}

export interface ForwardTree {
  layers: ForwardLayer[];
  /** Every image and video, each URL once, in reading order. */
  media: ForwardMedia[];
  nodeCount: number;
}

/** Where a forward's nodes come from: inline, or by id through `get_forward_msg`. */
export interface ForwardSource {
  id?: string;
  nodes?: unknown[];
}

export interface FetchTreeOptions {
  /** `get_forward_msg` with `{ id }`: resolves to the platform's answer. */
  fetch(id: string): Promise<unknown>;
  /** Layers read at most (1: only the outer forward). */
  maxDepth: number;
  /** Nodes kept at most over all layers. */
  maxNodes: number;
  /** Layers kept at most (each nested one costs a platform call). */
  maxLayers: number;
  /** Called for a nested layer that could not be fetched (the tree is still returned). */
  onNestedFailure?(id: string | undefined, reason: string): void;
}

const FILE_URL = /^(https?|file|base64):\/\//;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field as text: OneBot sends ids as strings or numbers. */
function text(data: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = data !== undefined && Object.hasOwn(data, key) ? data[key] : undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return undefined;
}

function nonBlank(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== '');
}

function unescapeCq(value: string, inParameter: boolean): string {
  let result = value.replace(/&#91;/g, '[').replace(/&#93;/g, ']');
  if (inParameter) result = result.replace(/&#44;/g, ',');
  return result.replace(/&amp;/g, '&');
}

/** The segments of a CQ-code string (`text[CQ:image,url=…]more`). */
export function parseCqString(message: string): Segment[] {
  const segments: Segment[] = [];
  const pattern = /\[CQ:([A-Za-z0-9_.-]+)((?:,[^\]]*)?)\]/g;
  let last = 0;
  for (let match = pattern.exec(message); match !== null; match = pattern.exec(message)) {
    if (match.index > last) segments.push({ type: 'text', data: { text: unescapeCq(message.slice(last, match.index), false) } });
    const data: Record<string, unknown> = {};
    for (const pair of (match[2] ?? '').split(',').slice(1)) {
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      data[pair.slice(0, equals)] = unescapeCq(pair.slice(equals + 1), true);
    }
    segments.push({ type: match[1]!, data });
    last = match.index + match[0].length;
  }
  if (last < message.length) segments.push({ type: 'text', data: { text: unescapeCq(message.slice(last), false) } });
  return segments;
}

/** A message body as segments: a segment array (malformed entries dropped) or a CQ string. */
export function toSegments(message: unknown): Segment[] {
  if (typeof message === 'string') return parseCqString(message);
  if (!Array.isArray(message)) return [];
  return message.flatMap((entry): Segment[] => {
    if (typeof entry === 'string') return parseCqString(entry);
    if (!isRecord(entry) || typeof entry['type'] !== 'string') return [];
    return [{ type: entry['type'], data: isRecord(entry['data']) ? entry['data'] : {} }];
  });
}

/** The forward segments of an inbound OneBot event (`raw.message`, else `raw.raw_message`). */
export function forwardSourcesOf(raw: unknown): ForwardSource[] {
  if (!isRecord(raw)) return [];
  const body = raw['message'] ?? raw['raw_message'];
  return toSegments(body)
    .filter((segment) => segment.type === 'forward')
    .map(forwardSourceOf)
    .filter((source) => source.id !== undefined || source.nodes !== undefined);
}

function forwardSourceOf(segment: Segment): ForwardSource {
  const id = nonBlank(text(segment.data, 'id'), text(segment.data, 'res_id'));
  const content = segment.data['content'];
  const nodes = Array.isArray(content) && content.length > 0 ? content : undefined;
  return { ...(id === undefined ? {} : { id }), ...(nodes === undefined ? {} : { nodes }) };
}

/** The node list of a `get_forward_msg` answer; throws when there is none. */
export function nodesOfResponse(response: unknown): unknown[] {
  let value = response;
  for (let unwrap = 0; unwrap < 2; unwrap += 1) {
    if (Array.isArray(value)) return value;
    if (!isRecord(value)) break;
    for (const key of ['messages', 'message', 'content', 'nodes']) {
      const list = value[key];
      if (Array.isArray(list)) return list;
    }
    value = value['data'];
  }
  throw new Error('the answer holds no node list (expected messages, message, content or a list)');
}

interface ParsedNode {
  sender: string;
  segments: Segment[];
}

function parseNode(raw: unknown): ParsedNode {
  if (!isRecord(raw)) return { sender: '未知', segments: toSegments(raw) };
  const node = raw['type'] === 'node' && isRecord(raw['data']) ? raw['data'] : raw;
  const sender = isRecord(node['sender']) ? node['sender'] : undefined;
  const name = nonBlank(
    text(sender, 'card'),
    text(sender, 'nickname'),
    text(node, 'nickname'),
    text(node, 'name'),
    text(sender, 'user_id'),
    text(node, 'user_id'),
    text(node, 'uin'),
  );
  const body = node['message'] ?? node['content'] ?? node['raw_message'];
  return { sender: name?.trim() ?? '未知', segments: toSegments(body) };
}

function cardText(data: Record<string, unknown>): string {
  const json = text(data, 'data');
  if (json !== undefined) {
    try {
      const parsed: unknown = JSON.parse(json);
      const prompt = isRecord(parsed) ? nonBlank(text(parsed, 'prompt'), text(parsed, 'desc')) : undefined;
      if (prompt !== undefined) return `[卡片：${prompt.trim()}]`;
    } catch {
      // Not JSON: the generic placeholder below.
    }
  }
  return '[卡片消息]';
}

/** `[label]`, or `[label：detail]` when the detail is not blank. */
function labelled(label: string, detail: string | undefined): string {
  return nonBlank(detail) === undefined ? `[${label}]` : `[${label}：${detail}]`;
}

/** What a segment without text of its own shows. */
function placeholder(segment: Segment): string {
  const { type, data } = segment;
  switch (type) {
    case 'face':
      return '[表情]';
    case 'mface':
    case 'marketface':
      return nonBlank(text(data, 'summary')) ?? '[表情]';
    case 'record':
      return '[语音]';
    case 'file':
      return `[文件：${nonBlank(text(data, 'name'), text(data, 'file')) ?? '未命名'}]`;
    case 'json':
      return cardText(data);
    case 'xml':
      return '[卡片消息]';
    case 'markdown':
      return nonBlank(text(data, 'content')) ?? '[消息]';
    case 'image':
      return '[图片]';
    case 'video':
      return '[视频]';
    case 'reply':
      return '';
    case 'dice':
      return labelled('骰子', text(data, 'result'));
    case 'rps':
      return '[猜拳]';
    case 'poke':
      return '[戳一戳]';
    case 'location':
      return labelled('位置', text(data, 'title'));
    case 'music':
      return '[音乐分享]';
    case 'share':
      return labelled('链接', text(data, 'title'));
    default:
      return `[${type}]`;
  }
}

interface Pending {
  source: ForwardSource;
  parent?: { layer: number; sender: string };
  part?: Extract<ForwardPart, { type: 'layer' }>;
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

async function nodesOf(source: ForwardSource, fetch: FetchTreeOptions['fetch']): Promise<unknown[]> {
  if (source.nodes !== undefined) return source.nodes;
  if (source.id === undefined) throw new Error('the forward segment has neither an id nor its nodes');
  return nodesOfResponse(await fetch(source.id));
}

/**
 * Reads a forward and every nested one into layers, breadth first (the nested forwards of a
 * layer are fetched concurrently). The outer forward failing rejects; a nested one failing
 * becomes that layer's `failure`. Depth, node and layer limits leave a note in the text.
 */
export async function fetchForwardTree(root: ForwardSource, options: FetchTreeOptions): Promise<ForwardTree> {
  const tree: ForwardTree = { layers: [], media: [], nodeCount: 0 };
  const mediaByUrl = new Map<string, ForwardMedia>();
  let level: Pending[] = [{ source: root }];
  for (let depth = 1; level.length > 0; depth += 1) {
    const fetched = await Promise.all(
      level.map((pending) =>
        nodesOf(pending.source, options.fetch).then(
          (nodes) => ({ nodes, failure: undefined }),
          (error: unknown) => ({ nodes: [] as unknown[], failure: describeFailure(error) }),
        ),
      ),
    );
    const next: Pending[] = [];
    for (const [index, pending] of level.entries()) {
      const { nodes, failure } = fetched[index]!;
      if (depth === 1 && failure !== undefined) throw new Error(failure);
      const layer: ForwardLayer = { number: tree.layers.length + 1, depth, nodes: [], omitted: 0 };
      if (pending.parent !== undefined) layer.parent = pending.parent;
      if (pending.part !== undefined) pending.part.layer = layer.number;
      tree.layers.push(layer);
      if (failure !== undefined) {
        layer.failure = failure;
        options.onNestedFailure?.(pending.source.id, failure);
        continue;
      }
      for (const rawNode of nodes) {
        if (tree.nodeCount >= options.maxNodes) {
          layer.omitted += 1;
          continue;
        }
        tree.nodeCount += 1;
        const parsed = parseNode(rawNode);
        const node: ForwardNode = { sender: parsed.sender, parts: [] };
        for (const segment of parsed.segments) {
          if (segment.type === 'text') {
            const value = text(segment.data, 'text') ?? '';
            if (value !== '') node.parts.push({ type: 'text', text: value });
          } else if (segment.type === 'at') {
            const qq = text(segment.data, 'qq');
            node.parts.push({ type: 'text', text: qq === 'all' ? '@全体成员' : `@${nonBlank(text(segment.data, 'name')) ?? qq ?? ''}` });
          } else if (segment.type === 'image' || segment.type === 'video') {
            const file = text(segment.data, 'file');
            const url = nonBlank(text(segment.data, 'url')) ?? (file !== undefined && FILE_URL.test(file) ? file : undefined);
            if (url === undefined) {
              node.parts.push({ type: 'text', text: placeholder(segment) });
              continue;
            }
            let media = mediaByUrl.get(url);
            if (media === undefined) {
              media = { kind: segment.type, url, ...(file === undefined || file === url ? {} : { file }) };
              mediaByUrl.set(url, media);
              tree.media.push(media);
            }
            node.parts.push({ type: 'media', media });
          } else if (segment.type === 'forward') {
            const source = forwardSourceOf(segment);
            const part: Extract<ForwardPart, { type: 'layer' }> = { type: 'layer', layer: 0 };
            node.parts.push(part);
            if (depth >= options.maxDepth) part.note = '嵌套过深，未展开';
            else if (tree.layers.length + next.length + level.length - index - 1 >= options.maxLayers) part.note = '层数过多，未展开';
            else if (source.id === undefined && source.nodes === undefined) part.note = '没有可读的内容';
            else next.push({ source, parent: { layer: layer.number, sender: node.sender }, part });
          } else {
            const shown = placeholder(segment);
            if (shown !== '') node.parts.push({ type: 'text', text: shown });
          }
        }
        layer.nodes.push(node);
      }
    }
    level = next;
  }
  return tree;
}
