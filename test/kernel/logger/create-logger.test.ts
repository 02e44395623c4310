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

  it('honours the level', () => {
    const out = sink();
    const root = createLogger({ format: 'json', level: 'warn', destination: out.destination as never });
    root.info('hidden');
    root.warn('shown');
    expect(out.text()).not.toContain('hidden');
    expect(out.text()).toContain('shown');
  });
});
