import { describe, expect, it } from 'vitest';
import { copyPlainData } from '../../src/kernel/copy-plain-data.js';

describe(copyPlainData, () => {
  it('copies a prompt deeply: editing the copy at any depth leaves the original as it was', () => {
    const original = [
      { role: 'system', content: '你是月璃。'.repeat(100) },
      { role: 'user', content: [{ type: 'text', text: '看这张图' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } }] },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'roll', args: { sides: 6, nested: { list: [1, 2] } } }] },
    ];
    const before = structuredClone(original);
    const copy = copyPlainData(original);
    expect(copy).toEqual(original);
    copy[0]!.content = '改了';
    (copy[1]!.content as { image_url?: { detail: string } }[])[1]!.image_url!.detail = 'high';
    (copy[2]!.tool_calls![0]!.args.nested.list as number[]).push(3);
    copy.push({ role: 'user', content: '多一条' });
    expect(original).toEqual(before);
  });

  it('copies what is not plain data (a Date, a Map, a class instance) as structuredClone does', () => {
    const when = new Date(Date.UTC(2026, 0, 1));
    const copy = copyPlainData({ when, counts: new Map([['a', 1]]) });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(when.getTime());
    expect(copy.counts.get('a')).toBe(1);
  });

  it('survives a cycle (deep branches fall back to structuredClone)', () => {
    const node: { name: string; self?: unknown } = { name: 'loop' };
    node.self = node;
    const copy = copyPlainData(node) as { name: string; self: { name: string } };
    expect(copy.name).toBe('loop');
    expect(copy.self.name).toBe('loop');
    expect(copy).not.toBe(node);
  });

  it('returns primitives as they are', () => {
    expect(copyPlainData('文本')).toBe('文本');
    expect(copyPlainData(42)).toBe(42);
    expect(copyPlainData(null)).toBeNull();
    expect(copyPlainData(undefined)).toBeUndefined();
  });
});
