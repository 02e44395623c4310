import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../../src/adapters/onebot_v11/codec.js';
import { buildEnvelope, flattenSegments, toSegments, type SelfRecognition } from '../../../src/adapters/onebot_v11/segments.js';
import { InboundEnvelopeSchema, type InboundSegment } from '../../../src/chat/inbound-envelope.js';

const self: SelfRecognition = { selfIds: new Set(['10000']), isSentByBot: () => false };

interface Case {
  /** The segment as the spec's array form writes it. */
  array: { type: string; data: Record<string, unknown> };
  /** The same segment in CQ-code string form (the spec's example where it gives one). */
  cq: string;
  segment: InboundSegment;
  placeholder: string;
}

/** Every OneBot v11 segment type (message/segment.md), with the spec's example data. */
const cases: Record<string, Case> = {
  text: { array: { type: 'text', data: { text: '纯文本内容' } }, cq: '纯文本内容', segment: { type: 'text', text: '纯文本内容' }, placeholder: '纯文本内容' },
  face: { array: { type: 'face', data: { id: '123' } }, cq: '[CQ:face,id=123]', segment: { type: 'face', id: '123' }, placeholder: '[表情]' },
  image: {
    array: { type: 'image', data: { file: 'http://baidu.com/1.jpg' } },
    cq: '[CQ:image,file=http://baidu.com/1.jpg]',
    segment: { type: 'image', file: 'http://baidu.com/1.jpg', flash: false },
    placeholder: '[图片]',
  },
  'flash image': {
    array: { type: 'image', data: { file: 'abc.image', type: 'flash' } },
    cq: '[CQ:image,file=abc.image,type=flash]',
    segment: { type: 'image', file: 'abc.image', flash: true },
    placeholder: '[图片]',
  },
  record: { array: { type: 'record', data: { file: 'http://baidu.com/1.mp3' } }, cq: '[CQ:record,file=http://baidu.com/1.mp3]', segment: { type: 'record', file: 'http://baidu.com/1.mp3' }, placeholder: '[语音]' },
  video: { array: { type: 'video', data: { file: 'http://baidu.com/1.mp4' } }, cq: '[CQ:video,file=http://baidu.com/1.mp4]', segment: { type: 'video', file: 'http://baidu.com/1.mp4' }, placeholder: '[视频]' },
  at: { array: { type: 'at', data: { qq: '10001000' } }, cq: '[CQ:at,qq=10001000]', segment: { type: 'at', qq: '10001000' }, placeholder: '@10001000' },
  'at all': { array: { type: 'at', data: { qq: 'all' } }, cq: '[CQ:at,qq=all]', segment: { type: 'at', qq: 'all' }, placeholder: '@全体成员' },
  rps: { array: { type: 'rps', data: {} }, cq: '[CQ:rps]', segment: { type: 'rps' }, placeholder: '[猜拳]' },
  dice: { array: { type: 'dice', data: {} }, cq: '[CQ:dice]', segment: { type: 'dice' }, placeholder: '[骰子]' },
  'dice with a result (NapCat)': { array: { type: 'dice', data: { result: '5' } }, cq: '[CQ:dice,result=5]', segment: { type: 'dice', result: '5' }, placeholder: '[骰子：5]' },
  shake: { array: { type: 'shake', data: {} }, cq: '[CQ:shake]', segment: { type: 'shake' }, placeholder: '[窗口抖动]' },
  poke: { array: { type: 'poke', data: { type: '126', id: '2003' } }, cq: '[CQ:poke,type=126,id=2003]', segment: { type: 'poke', kind: '126', id: '2003' }, placeholder: '[戳一戳]' },
  anonymous: { array: { type: 'anonymous', data: {} }, cq: '[CQ:anonymous]', segment: { type: 'anonymous' }, placeholder: '[匿名]' },
  share: {
    array: { type: 'share', data: { url: 'http://baidu.com', title: '百度' } },
    cq: '[CQ:share,url=http://baidu.com,title=百度]',
    segment: { type: 'share', url: 'http://baidu.com', title: '百度' },
    placeholder: '[链接：百度]',
  },
  'contact qq': { array: { type: 'contact', data: { type: 'qq', id: '10001000' } }, cq: '[CQ:contact,type=qq,id=10001000]', segment: { type: 'contact', kind: 'qq', id: '10001000' }, placeholder: '[推荐好友：10001000]' },
  'contact group': { array: { type: 'contact', data: { type: 'group', id: '100100' } }, cq: '[CQ:contact,type=group,id=100100]', segment: { type: 'contact', kind: 'group', id: '100100' }, placeholder: '[推荐群：100100]' },
  location: {
    array: { type: 'location', data: { lat: '39.8969426', lon: '116.3109099' } },
    cq: '[CQ:location,lat=39.8969426,lon=116.3109099]',
    segment: { type: 'location', lat: '39.8969426', lon: '116.3109099' },
    placeholder: '[位置：39.8969426,116.3109099]',
  },
  music: { array: { type: 'music', data: { type: '163', id: '28949129' } }, cq: '[CQ:music,type=163,id=28949129]', segment: { type: 'music', kind: '163', id: '28949129' }, placeholder: '[音乐分享]' },
  'music custom': {
    array: { type: 'music', data: { type: 'custom', url: 'http://baidu.com', audio: 'http://baidu.com/1.mp3', title: '音乐标题' } },
    cq: '[CQ:music,type=custom,url=http://baidu.com,audio=http://baidu.com/1.mp3,title=音乐标题]',
    segment: { type: 'music', kind: 'custom', url: 'http://baidu.com', audio: 'http://baidu.com/1.mp3', title: '音乐标题' },
    placeholder: '[音乐分享：音乐标题]',
  },
  reply: { array: { type: 'reply', data: { id: '123456' } }, cq: '[CQ:reply,id=123456]', segment: { type: 'reply', id: '123456' }, placeholder: '' },
  forward: { array: { type: 'forward', data: { id: '123456' } }, cq: '[CQ:forward,id=123456]', segment: { type: 'forward', id: '123456' }, placeholder: '[聊天记录]' },
  node: { array: { type: 'node', data: { id: '123456' } }, cq: '[CQ:node,id=123456]', segment: { type: 'node', id: '123456' }, placeholder: '[转发消息]' },
  'node custom': {
    array: { type: 'node', data: { user_id: '10001000', nickname: '某人', content: '[CQ:face,id=123]哈喽～' } },
    cq: '[CQ:node,user_id=10001000,nickname=某人,content=&#91;CQ:face&#44;id=123&#93;哈喽～]',
    segment: { type: 'node', user_id: '10001000', nickname: '某人', text: '[表情]哈喽～' },
    placeholder: '[转发消息：某人：[表情]哈喽～]',
  },
  xml: { array: { type: 'xml', data: { data: '<?xml version="1.0"?><msg/>' } }, cq: '[CQ:xml,data=<?xml version="1.0"?><msg/>]', segment: { type: 'xml', data: '<?xml version="1.0"?><msg/>' }, placeholder: '[卡片消息]' },
  json: {
    array: { type: 'json', data: { data: '{"app":"com.tencent.miniapp","prompt":"[分享]一个链接"}' } },
    cq: '[CQ:json,data={"app":"com.tencent.miniapp"&#44;"prompt":"&#91;分享&#93;一个链接"}]',
    segment: { type: 'json', data: '{"app":"com.tencent.miniapp","prompt":"[分享]一个链接"}' },
    placeholder: '[卡片：[分享]一个链接]',
  },
};

describe('every OneBot v11 segment type', () => {
  it.each(Object.entries(cases))('%s: array and CQ-string forms parse to the same segment and placeholder', (_name, { array, cq, segment, placeholder }) => {
    const fromArray = flattenSegments([array], self);
    const fromString = flattenSegments(toSegments(cq), self);
    expect(fromArray.segments).toEqual([segment]);
    expect(fromString.segments).toEqual([segment]);
    expect(fromArray.content).toBe(placeholder);
    expect(fromString.content).toBe(placeholder);
    expect(fromArray.problems).toEqual([]);
    expect(fromString.problems).toEqual([]);
  });

  it('carries the segments into an envelope the host accepts, in order', () => {
    const message = Object.values(cases).map((entry) => entry.array);
    const decoded = decodeFrame(JSON.stringify({ time: 1_700_000_000, self_id: 10000, post_type: 'message', message_type: 'private', message_id: 1, user_id: 2, message }));
    if (decoded.kind !== 'message') throw new Error(JSON.stringify(decoded));
    const envelope = InboundEnvelopeSchema.parse(buildEnvelope(decoded.event, 'qq', self));
    expect(envelope.segments).toEqual(Object.values(cases).map((entry) => entry.segment));
    expect(envelope.content).toBe(Object.values(cases).map((entry) => entry.placeholder).join(''));
  });
});

describe('segments outside the standard', () => {
  it('reads NapCat and Lagrange file segments as a named file', () => {
    const napcat = flattenSegments([{ type: 'file', data: { file: 'a.zip', file_id: 'x', file_size: '2048', url: 'http://f.example/a.zip' } }], self);
    expect(napcat.segments).toEqual([{ type: 'file', file: 'a.zip', url: 'http://f.example/a.zip', size: '2048' }]);
    expect(napcat.content).toBe('[文件：a.zip]');
    const lagrange = flattenSegments([{ type: 'file', data: { file_name: '报告.pdf', file_size: 10 } }], self);
    expect(lagrange.segments).toEqual([{ type: 'file', name: '报告.pdf', size: '10' }]);
    expect(lagrange.content).toBe('[文件：报告.pdf]');
  });

  it('shows an mface by its summary', () => {
    const flat = flattenSegments(toSegments('[CQ:mface,emoji_id=abc,emoji_package_id=1,summary=&#91;开心&#93;]'), self);
    expect(flat.segments).toEqual([{ type: 'mface', emoji_id: 'abc', emoji_package_id: '1', summary: '[开心]' }]);
    expect(flat.content).toBe('[开心]');
  });

  it('keeps an unknown type with its data, shows its type, and reports it instead of dropping it', () => {
    const flat = flattenSegments([{ type: 'text', data: { text: 'a' } }, { type: 'markdown_v9', data: { content: '# hi' } }], self);
    expect(flat.segments).toEqual([
      { type: 'text', text: 'a' },
      { type: 'other', wire_type: 'markdown_v9', data: { content: '# hi' } },
    ]);
    expect(flat.content).toBe('a[markdown_v9]');
    expect(flat.problems).toEqual(['segment 1: unknown segment type "markdown_v9" (kept as [markdown_v9])']);
  });

  it('reports a known segment missing the field it needs, keeping what it has', () => {
    const flat = flattenSegments([{ type: 'at', data: {} }, { type: 'contact', data: { type: 'qq' } }], self);
    expect(flat.segments).toEqual([{ type: 'at' }, { type: 'contact', kind: 'qq' }]);
    expect(flat.content).toBe('@[推荐好友]');
    expect(flat.problems).toEqual(['segment 0: at segment without data.qq', 'segment 1: contact segment without data.id']);
  });

  it('passes each problem, naming the message, to the reporter of buildEnvelope', () => {
    const decoded = decodeFrame(
      JSON.stringify({ time: 1, self_id: 10000, post_type: 'message', message_type: 'private', message_id: 42, user_id: 2, message: '[CQ:weird,x=1]' }),
    );
    if (decoded.kind !== 'message') throw new Error(JSON.stringify(decoded));
    const reported: string[] = [];
    const envelope = buildEnvelope(decoded.event, 'qq', self, (problem) => reported.push(problem));
    expect(envelope.content).toBe('[weird]');
    expect(reported).toEqual(['message 42: segment 0: unknown segment type "weird" (kept as [weird])']);
  });

  it('reads a Lagrange custom node (uin / name) like a spec one (user_id / nickname)', () => {
    const flat = flattenSegments([{ type: 'node', data: { uin: '10001', name: '小助手', content: [{ type: 'text', data: { text: '测试消息' } }] } }], self);
    expect(flat.segments).toEqual([{ type: 'node', user_id: '10001', nickname: '小助手', text: '测试消息' }]);
    expect(flat.content).toBe('[转发消息：小助手：测试消息]');
  });
});

describe('nested forward nodes', () => {
  it('stops reading nodes nested deeper than three levels, however deep the frame goes', () => {
    let content: unknown = [{ type: 'text', data: { text: 'bottom' } }];
    for (let level = 0; level < 20_000; level++) content = [{ type: 'node', data: { nickname: `n${level}`, content } }];
    const flat = flattenSegments(content as { type: string; data: Record<string, unknown> }[], self);
    expect(flat.content).toBe('[转发消息：n19999：[转发消息：n19998：[转发消息：n19997：[转发消息：n19996：…]]]]');
  });
});
