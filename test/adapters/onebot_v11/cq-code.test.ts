import { describe, expect, it } from 'vitest';
import { parseCqString, unescapeCq } from '../../../src/adapters/onebot_v11/cq-code.js';

describe('parseCqString', () => {
  it('splits text, at, reply, image and face codes into segments', () => {
    expect(parseCqString('[CQ:reply,id=-12][CQ:at,qq=10000] look [CQ:image,file=abc.jpg,url=https://x.test/a?b=1&amp;c=2][CQ:face,id=14]')).toEqual([
      { type: 'reply', data: { id: '-12' } },
      { type: 'at', data: { qq: '10000' } },
      { type: 'text', data: { text: ' look ' } },
      { type: 'image', data: { file: 'abc.jpg', url: 'https://x.test/a?b=1&c=2' } },
      { type: 'face', data: { id: '14' } },
    ]);
  });

  it('unescapes &amp; &#91; &#93; in text and also &#44; in values', () => {
    expect(parseCqString('a &#91;b&#93; &amp;#91; [CQ:text,text=x&#44;y]')).toEqual([
      { type: 'text', data: { text: 'a [b] &#91; ' } },
      { type: 'text', data: { text: 'x,y' } },
    ]);
  });

  it('keeps a broken code as text and an empty string as no segments', () => {
    expect(parseCqString('[CQ:at,qq=1')).toEqual([{ type: 'text', data: { text: '[CQ:at,qq=1' } }]);
    expect(parseCqString('')).toEqual([]);
  });

  it('keeps a key named __proto__ as ordinary data', () => {
    const [segment] = parseCqString('[CQ:x,__proto__=1,flag]');
    expect(Object.getPrototypeOf(segment?.data)).toBe(Object.prototype);
    expect(segment?.data).toEqual(Object.fromEntries([['__proto__', '1'], ['flag', '']]));
  });
});

describe('unescapeCq', () => {
  it('undoes every CQ escape', () => {
    expect(unescapeCq('&#91;&#93;&#44;&amp;')).toBe('[],&');
  });
});
