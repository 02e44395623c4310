import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, pluginLogger } from '../../../src/kernel/logger/create-logger.js';

function sink() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { destination, text: () => chunks.join('') };
}

describe('createLogger', () => {
  it('writes one JSON object per line in json format, and a plugin child carries its id', () => {
    const out = sink();
    const root = createLogger({ format: 'json', destination: out.destination as never });
    pluginLogger(root, 'weather').info({ city: 'Hangzhou' }, '工具插件已加载');
    const line = JSON.parse(out.text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ plugin: 'weather', city: 'Hangzhou', msg: '工具插件已加载', level: 30 });
    expect(typeof line['time']).toBe('string');
  });

  it('writes readable lines in pretty format, with the plugin id in front of the message', () => {
    const out = sink();
    const root = createLogger({ format: 'pretty', destination: out.destination as never });
    pluginLogger(root, 'weather').warn('quota almost spent');
    const text = out.text();
    expect(text).toMatch(/WARN.*\[weather\] quota almost spent/);
    expect(text.trim().startsWith('{')).toBe(false);
  });

  describe('in pretty format, when a field or the message holds control characters (issue 13, item 9)', () => {
    const forged = '阿明\n[12:00:00] INFO: forged';
    const ansi = '\u001b[31mred\u001b[0m';

    it('writes one line per record: a newline in a nickname cannot forge a line, and ANSI cannot colour it', () => {
      const out = sink();
      const root = createLogger({ format: 'pretty', destination: out.destination as never });
      pluginLogger(root, 'chat').warn({ nickname: forged, card: ansi, '\nkey': 1 }, `message from ${forged} ${ansi}`);
      root.info('next');
      const lines = out.text().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[2]).toBe('');
      expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: \[chat\] message from 阿明\\n\[12:00:00\] INFO: forged \\x1b\[31mred\\x1b\[0m /);
      expect(lines[0]).toContain('"nickname":"阿明\\n[12:00:00] INFO: forged"');
      expect(lines[0]).toContain('"card":"\\x1b[31mred\\x1b[0m"');
      expect(lines[0]).toContain('"\\nkey":1');
      expect(lines[1]).toMatch(/INFO: next$/);
      expect(out.text()).not.toContain('\u001b');
    });

    it('escapes carriage returns, other C0 and C1 controls and the Unicode line separators, in the message and in fields', () => {
      const out = sink();
      const root = createLogger({ format: 'pretty', destination: out.destination as never });
      const nasty = 'a\rb\u0000c\u0007d\u009b31me\u0085f\u2028g\u2029h\u007fi';
      root.warn({ name: nasty, nested: { deeper: [nasty] }, 'key\u0085': 1 }, nasty);
      const text = out.text();
      expect(text.endsWith('\n')).toBe(true);
      expect(text.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      const escaped = 'a\\rb\\x00c\\x07d\\x9b31me\\x85f\\u2028g\\u2029h\\x7fi';
      // `name` is one of pino-pretty's metadata keys, shown in brackets after the level.
      expect(text).toContain(`WARN (${escaped}): ${escaped} {"nested":{"deeper":["${escaped}"]},"key\\x85":1}`);
    });

    it('keeps an error object on the same line', () => {
      const out = sink();
      const root = createLogger({ format: 'pretty', destination: out.destination as never });
      root.error({ err: new Error('bad\n[12:00:00] INFO: forged') }, 'failed');
      const text = out.text();
      expect(text.split('\n')).toHaveLength(2);
      expect(text).toContain('bad\\n[12:00:00] INFO: forged');
    });
  });

  it('honours the level', () => {
    const out = sink();
    const root = createLogger({ format: 'json', level: 'warn', destination: out.destination as never });
    root.info('hidden');
    root.warn('shown');
    expect(out.text()).not.toContain('hidden');
    expect(out.text()).toContain('shown');
  });
});
