import { describe, expect, it } from 'vitest';
import {
  type ForwardTree,
  fetchForwardTree,
  forwardSourcesOf,
  nodesOfResponse,
  parseCqString,
} from '../../../src/plugins/built_in/forward-message/forward-tree.js';
import { cutPage, documentPieces } from '../../../src/plugins/built_in/forward-message/render-forward.js';

const limits = { maxDepth: 3, maxNodes: 300, maxLayers: 20 };
const render = (tree: ForwardTree) => cutPage(documentPieces(tree), 0, 100_000).text;
const node = (nickname: string, message: unknown) => ({ sender: { user_id: 1, nickname }, message });

describe('forward-message: reading the shapes OneBot implementations send', () => {
  it('finds forward segments in the array form and in CQ strings (escapes undone), ignoring other events', () => {
    expect(forwardSourcesOf({ message: [{ type: 'text', data: { text: 'hi' } }, { type: 'forward', data: { id: 123 } }] })).toEqual([{ id: '123' }]);
    expect(forwardSourcesOf({ message: '看看[CQ:forward,id=abc&#44;def]' })).toEqual([{ id: 'abc,def' }]);
    expect(forwardSourcesOf({ raw_message: '[CQ:forward,id=x1]' })).toEqual([{ id: 'x1' }]);
    expect(forwardSourcesOf({ message: [{ type: 'forward', data: { id: 'n', content: [node('甲', 'hi')] } }] })).toEqual([{ id: 'n', nodes: [node('甲', 'hi')] }]);
    for (const raw of [null, 'text', { message: 'plain [not cq]' }, { message: [{ type: 'forward', data: {} }] }]) expect(forwardSourcesOf(raw)).toEqual([]);
    expect(parseCqString('a&#91;b&#93;&amp;[CQ:at,qq=1]')).toEqual([
      { type: 'text', data: { text: 'a[b]&' } },
      { type: 'at', data: { qq: '1' } },
    ]);
  });

  it('accepts { messages }, { message }, { content }, those under data, and a bare node list', () => {
    const list = [node('甲', 'hi')];
    for (const answer of [{ messages: list }, { message: list }, { content: list }, { data: { messages: list } }, list]) expect(nodesOfResponse(answer)).toBe(list);
    expect(() => nodesOfResponse({ retcode: 0 })).toThrow(/no node list/);
    expect(() => nodesOfResponse(null)).toThrow(/no node list/);
  });

  it('reads sending-form nodes, cards before nicknames, common segments, and inline nested content without fetching', async () => {
    const fetched: string[] = [];
    const tree = await fetchForwardTree(
      {
        nodes: [
          { type: 'node', data: { user_id: 5, nickname: '乙', content: [{ type: 'text', data: { text: '第一行\n第二行' } }] } },
          { sender: { user_id: 6, nickname: '丙', card: '丙的群名片' }, content: '[CQ:at,qq=all] [CQ:record,file=a.amr][CQ:file,name=报告.pdf]' },
          node('丁', [{ type: 'json', data: { data: JSON.stringify({ prompt: '[分享]一篇文章' }) } }, { type: 'reply', data: { id: '1' } }]),
          node('戊', [{ type: 'forward', data: { content: [node('己', '里面那层')] } }]),
          node('庚', []),
        ],
      },
      { ...limits, fetch: async (id) => (fetched.push(id), []) },
    );
    expect(fetched).toEqual([]);
    expect(render(tree)).toBe(
      [
        '【第 1 层，5 条】',
        '乙: 第一行',
        '  第二行',
        '丙的群名片: @全体成员 [语音][文件：报告.pdf]',
        '丁: [卡片：[分享]一篇文章]',
        '戊: [聊天记录，见第 2 层]',
        '庚: （空消息）',
        '【第 2 层，戊 在第 1 层转发，1 条】',
        '己: 里面那层',
        '',
      ].join('\n'),
    );
  });

  it('stops at max_depth, the node limit and the layer limit, saying so in the text', async () => {
    // Every layer holds one message and one more nested forward, without end.
    const fetch = async (id: string) => ({ messages: [node(`层${id}`, `[CQ:forward,id=${Number(id) + 1}]`)] });
    const deep = await fetchForwardTree({ id: '1' }, { ...limits, maxDepth: 2, fetch });
    expect(render(deep)).toContain('层2: [聊天记录（嵌套过深，未展开）]');
    expect(deep.layers).toHaveLength(2);

    const many = { messages: Array.from({ length: 5 }, (_, index) => node(`人${index}`, `话${index}`)) };
    const capped = await fetchForwardTree({ id: 'x' }, { ...limits, maxNodes: 3, fetch: async () => many });
    expect(render(capped)).toContain('（消息过多，这一层另有 2 条未展开）');

    const wide = { messages: Array.from({ length: 4 }, (_, index) => node(`人${index}`, `[CQ:forward,id=w${index}]`)) };
    const layered = await fetchForwardTree({ id: 'root' }, { ...limits, maxLayers: 3, fetch: async (id) => (id === 'root' ? wide : { messages: [node('内', '内容')] }) });
    expect(layered.layers).toHaveLength(3);
    expect(render(layered)).toContain('人2: [聊天记录（层数过多，未展开）]');
  });

  it('collects each image and video URL once, taking a URL from data.file when data.url is missing', async () => {
    const tree = await fetchForwardTree(
      {
        nodes: [
          node('甲', [{ type: 'image', data: { url: 'https://a/1.png', file: '1.png' } }, { type: 'image', data: { file: 'https://a/2.png' } }]),
          node('乙', [{ type: 'image', data: { url: 'https://a/1.png' } }, { type: 'image', data: { file: 'local-only.png' } }, { type: 'video', data: { url: 'https://v/1.mp4', file: 'md5.mp4' } }]),
        ],
      },
      { ...limits, fetch: async () => [] },
    );
    expect(tree.media.map(({ kind, url, file }) => ({ kind, url, file }))).toEqual([
      { kind: 'image', url: 'https://a/1.png', file: '1.png' },
      { kind: 'image', url: 'https://a/2.png', file: undefined },
      { kind: 'video', url: 'https://v/1.mp4', file: 'md5.mp4' },
    ]);
    expect(render(tree)).toContain('乙: [图片][图片][视频]');
  });

  it('a page never splits a surrogate pair and prefers to end at a line break', async () => {
    const tree = await fetchForwardTree({ nodes: [node('甲', '😀'.repeat(30)), node('乙', '短')] }, { ...limits, fetch: async () => [] });
    const pieces = documentPieces(tree);
    for (let size = 30; size <= 45; size += 1) {
      const first = cutPage(pieces, 0, size);
      expect(/[\uD800-\uDBFF]$/.test(first.text)).toBe(false);
      const second = cutPage(pieces, first.nextOffset!, 200);
      expect(first.text + second.text).toBe(render(tree));
    }
    // A line break in the last fifth of the window ends the page there.
    const short = documentPieces(await fetchForwardTree({ nodes: [node('甲', '一二三四五六七八'), node('乙', '九十')] }, { ...limits, fetch: async () => [] }));
    expect(cutPage(short, 0, 26).text).toBe('【第 1 层，2 条】\n甲: 一二三四五六七八\n');
  });
});
