import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import * as z from 'zod';
import { renderTomlDocument } from '../../../src/kernel/config/render-toml-document.js';

describe('renderTomlDocument', () => {
  const schema = z.object({
    title: z.string().describe('Shown at the top').default('moon "glass"\\'),
    plugin: z
      .object({
        enabled: z.boolean().describe('是否启用本插件').default(true),
        ratio: z.number().default(0.5),
        names: z.array(z.string()).describe('Several lines\nof help').default(['a', 'b']),
        limits: z.record(z.string(), z.number()).default({ 'per-day': 3, 'odd key': 1 }),
        secret: z.string().optional(),
      })
      .prefault({}),
  });

  it('writes the header, scalars, then tables, with each description as a comment above its key', () => {
    const text = renderTomlDocument({ header: ['Generated.', 'Edit freely.'], schema, values: schema.parse({}) });
    expect(text).toBe(
      [
        '# Generated.',
        '# Edit freely.',
        '',
        '# Shown at the top',
        'title = "moon \\"glass\\"\\\\"',
        '',
        '[plugin]',
        '# 是否启用本插件',
        'enabled = true',
        'ratio = 0.5',
        '# Several lines',
        '# of help',
        'names = ["a", "b"]',
        'limits = { per-day = 3, "odd key" = 1 }',
        '# secret = (not set)',
        '',
      ].join('\n'),
    );
  });

  it('produces TOML that parses back to the same values', () => {
    const values = schema.parse({ title: 'tab\there \u007f', plugin: { ratio: -2.25, names: [] } });
    const parsed = JSON.parse(JSON.stringify(parse(renderTomlDocument({ header: [], schema, values }))));
    expect(parsed).toEqual(values);
  });
});
