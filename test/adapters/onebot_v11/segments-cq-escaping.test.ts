import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeCqText, escapeCqValue, formatCqString, parseCqString, unescapeCq } from '../../../src/adapters/onebot_v11/cq-code.js';

describe('CQ escaping (message/string.md)', () => {
  it('escapes text as the spec example does, and reads it back', () => {
    const text = '- [x] 使用 `&data` 获取地址';
    expect(escapeCqText(text)).toBe('- &#91;x&#93; 使用 `&amp;data` 获取地址');
    expect(unescapeCq(escapeCqText(text))).toBe(text);
  });

  it('escapes , only in parameter values', () => {
    expect(escapeCqText('a,b')).toBe('a,b');
    expect(escapeCqValue('震惊,小伙睡觉前居然...')).toBe('震惊&#44;小伙睡觉前居然...');
    expect(escapeCqValue('http://baidu.com/?a=1&b=2')).toBe('http://baidu.com/?a=1&amp;b=2');
  });

  it('parses the spec share example into its literal values', () => {
    expect(parseCqString('[CQ:share,title=震惊&#44;小伙睡觉前居然...,url=http://baidu.com/?a=1&amp;b=2]')).toEqual([
      { type: 'share', data: { title: '震惊,小伙睡觉前居然...', url: 'http://baidu.com/?a=1&b=2' } },
    ]);
  });

  it('keeps an = inside a value (only the first = separates the name)', () => {
    expect(parseCqString('[CQ:share,title=标题中有=等号,url=http://baidu.com]')).toEqual([
      { type: 'share', data: { title: '标题中有=等号', url: 'http://baidu.com' } },
    ]);
  });

  it('writes text escaped and codes with escaped values', () => {
    expect(
      formatCqString([
        { type: 'text', data: { text: 'a[1]&b,' } },
        { type: 'share', data: { title: '震惊,小伙', url: 'http://x.test/?a=1&b=2' } },
        { type: 'shake', data: {} },
        { type: 'at', data: { qq: 10001, name: undefined } },
      ]),
    ).toBe('a&#91;1&#93;&amp;b,[CQ:share,title=震惊&#44;小伙,url=http://x.test/?a=1&amp;b=2][CQ:shake][CQ:at,qq=10001]');
  });

  it('writes a node content array as an escaped nested CQ string, as the spec node example', () => {
    expect(
      formatCqString([
        {
          type: 'node',
          data: {
            user_id: '10001000',
            nickname: '某人',
            content: [
              { type: 'face', data: { id: '123' } },
              { type: 'text', data: { text: '哈喽～' } },
            ],
          },
        },
      ]),
    ).toBe('[CQ:node,user_id=10001000,nickname=某人,content=&#91;CQ:face&#44;id=123&#93;哈喽～]');
  });

  it('reads back what it writes, whatever the text and values', () => {
    const name = fc.stringMatching(/^[a-z_]{1,8}$/);
    const segment = fc.oneof(
      fc.record({ type: fc.constant('text'), data: fc.record({ text: fc.string({ minLength: 1 }) }) }),
      fc.record({ type: fc.constantFrom('share', 'image', 'at', 'json'), data: fc.dictionary(name, fc.string(), { maxKeys: 4 }) }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        // Adjacent text segments read back as one: compare with them merged.
        const merged: { type: string; data: Record<string, unknown> }[] = [];
        for (const next of segments) {
          const previous = merged.at(-1);
          if (next.type === 'text' && previous?.type === 'text') previous.data = { text: `${String(previous.data['text'])}${next.data.text}` };
          else merged.push({ type: next.type, data: { ...next.data } });
        }
        expect(parseCqString(formatCqString(segments))).toEqual(merged);
      }),
    );
  });
});
