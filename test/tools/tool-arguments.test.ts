import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { JsonObjectSchema } from '../../src/kernel/components/parameters-schema.js';
import { compileToolArguments, modelParametersSchema, validateToolArguments } from '../../src/tools/tool-arguments.js';

const greetingSchema: JsonObjectSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: '称呼', maxLength: 5 },
    times: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
    tone: { enum: ['warm', 'dry'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    options: { type: 'object', properties: { limit: { type: 'number' } }, required: ['limit'] },
  },
  required: ['name'],
  additionalProperties: false,
};

function reasonFor(parameters: Parameters<typeof compileToolArguments>[0], args: unknown): string {
  const validation = validateToolArguments(compileToolArguments(parameters), args);
  if (validation.ok) throw new Error(`expected a rejection, got ${JSON.stringify(validation.value)}`);
  return validation.reason;
}

describe('validateToolArguments', () => {
  describe('with a JSON Schema object', () => {
    it('accepts valid arguments and applies defaults', () => {
      const validation = validateToolArguments(compileToolArguments(greetingSchema), { name: '月璃' });
      expect(validation).toEqual({ ok: true, value: { name: '月璃', times: 1 } });
    });

    it('[T-11] checks types and names the field', () => {
      expect(reasonFor(greetingSchema, { name: 42 })).toBe('参数 name：应为字符串，收到整数');
      expect(reasonFor(greetingSchema, { name: 'a', times: 1.5 })).toBe('参数 times：应为整数，收到小数');
    });

    it('[T-11] checks string length and names the field', () => {
      expect(reasonFor(greetingSchema, { name: '一二三四五六七' })).toBe('参数 name：长度不能超过 5 个字符，收到 7 个');
    });

    it('checks numeric ranges, list sizes and enums', () => {
      expect(reasonFor(greetingSchema, { name: 'a', times: 9 })).toBe('参数 times：不能大于 3');
      expect(reasonFor(greetingSchema, { name: 'a', times: 0 })).toBe('参数 times：不能小于 1');
      expect(reasonFor(greetingSchema, { name: 'a', tags: ['x', 'y', 'z'] })).toBe('参数 tags：最多 2 项，收到 3 项');
      expect(reasonFor(greetingSchema, { name: 'a', tone: 'loud' })).toBe('参数 tone：只能是 "warm"、"dry" 之一');
    });

    it('names a missing required field', () => {
      expect(reasonFor(greetingSchema, {})).toBe('参数 name：缺少必填字段');
    });

    it('names an unknown key when additionalProperties is false', () => {
      expect(reasonFor(greetingSchema, { name: 'a', extra: 1, other: 2 })).toBe('参数 extra：未知字段；参数 other：未知字段');
    });

    it('names nested fields by their dotted path, array items by index', () => {
      expect(reasonFor(greetingSchema, { name: 'a', tags: ['x', 7], options: {} })).toBe(
        '参数 tags.1：应为字符串，收到整数；参数 options.limit：缺少必填字段',
      );
    });

    it('reports every problem at once, and counts the ones past the first eight', () => {
      const wide: JsonObjectSchema = {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`f${index}`, { type: 'string' }])),
        required: Array.from({ length: 10 }, (_, index) => `f${index}`),
      };
      const reason = reasonFor(wide, {});
      expect(reason.split('；')).toHaveLength(9);
      expect(reason).toContain('参数 f0：缺少必填字段');
      expect(reason.endsWith('另有 2 处问题')).toBe(true);
    });

    it('[issue 15.8] reports arguments that were not valid JSON as such, with the parser’s complaint, not as missing fields', () => {
      const reason = reasonFor(greetingSchema, { _raw: '{"name": "月璃",' });
      expect(reason).toMatch(/^参数不是合法的 JSON 对象（arguments are not valid JSON: .+）：\{"name": "月璃",$/);
      expect(reason).not.toMatch(/name：/);
      expect(reasonFor(greetingSchema, { _raw: '["月璃"]' })).toMatch(/arguments are not valid JSON: it is JSON, but an array, not an object/);
      expect(reasonFor(greetingSchema, { _raw: 'x'.repeat(500) })).toMatch(/x{120}…$/);
    });

    it('refuses arguments that are not an object', () => {
      expect(reasonFor(greetingSchema, null)).toBe('参数：应为对象，收到空值');
      expect(reasonFor(greetingSchema, ['a'])).toBe('参数：应为对象，收到数组');
      expect(reasonFor(greetingSchema, 'name=a')).toBe('参数：应为对象，收到字符串');
    });

    it('lets unknown keys through when the schema does not forbid them', () => {
      const loose: JsonObjectSchema = { type: 'object', properties: { a: { type: 'string' } } };
      expect(validateToolArguments(compileToolArguments(loose), { a: 'x', b: 2 })).toEqual({ ok: true, value: { a: 'x', b: 2 } });
    });

    it('accepts nothing but {} for a tool without parameters', () => {
      const validator = compileToolArguments({ type: 'object', properties: {}, required: [] });
      expect(validateToolArguments(validator, {})).toEqual({ ok: true, value: {} });
      expect(validateToolArguments(validator, { surprise: true })).toEqual({ ok: false, reason: '参数 surprise：未知字段' });
    });

    it('resolves draft-7 `definitions` references', () => {
      const schema: JsonObjectSchema = {
        type: 'object',
        properties: { point: { $ref: '#/definitions/point' } },
        required: ['point'],
        definitions: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      };
      const validator = compileToolArguments(schema);
      expect(validateToolArguments(validator, { point: { x: 1 } }).ok).toBe(true);
      expect(validateToolArguments(validator, { point: {} })).toEqual({ ok: false, reason: '参数 point.x：缺少必填字段' });
    });
  });

  describe('with a zod object', () => {
    const zodSchema = z.object({
      query: z.string().min(1).max(8).describe('搜索词'),
      limit: z.int().min(1).max(50).default(10),
    });

    it('[issue 15.8] refuses unknown keys of a plain z.object, as additionalProperties: false does; a z.looseObject lets them through', () => {
      expect(reasonFor(zodSchema, { query: '月', limt: 3 })).toBe('参数 limt：未知字段');
      expect(validateToolArguments(compileToolArguments(z.looseObject({ a: z.string() })), { a: 'x', b: 1 })).toEqual({ ok: true, value: { a: 'x', b: 1 } });
      expect(compileToolArguments(zodSchema)).toBe(compileToolArguments(zodSchema)); // compiled once per schema
    });

    it('parses arguments with defaults and names bad fields', () => {
      expect(validateToolArguments(zodSchema, { query: '月' })).toEqual({ ok: true, value: { query: '月', limit: 10 } });
      expect(reasonFor(zodSchema, { query: '' })).toBe('参数 query：不能为空');
      expect(reasonFor(zodSchema, { query: '123456789', limit: 51 })).toBe('参数 query：长度不能超过 8 个字符，收到 9 个；参数 limit：不能大于 50');
    });

    it('names unknown keys of a strict object', () => {
      expect(reasonFor(z.strictObject({ a: z.string() }), { a: 'x', b: 1 })).toBe('参数 b：未知字段');
    });

    it('turns a validator that throws into a reason instead of a throw', () => {
      const asyncRefined = z.object({ a: z.string().refine(async () => true) });
      const validation = validateToolArguments(asyncRefined, { a: 'x' });
      expect(validation.ok).toBe(false);
      expect(!validation.ok && validation.reason).toMatch(/^参数无法校验：/);
    });

    it('reports the zod message for a custom refinement', () => {
      const refined = z.object({ a: z.string().refine((value) => value.startsWith('#'), '必须以 # 开头') });
      expect(reasonFor(refined, { a: 'x' })).toBe('参数 a：必须以 # 开头');
    });
  });
});

describe('compileToolArguments', () => {
  it('refuses a JSON Schema zod cannot compile', () => {
    expect(() => compileToolArguments({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } })).toThrow(/Reference not found/);
    expect(() => compileToolArguments({ type: 'object', if: { required: ['a'] }, then: { required: ['b'] } })).toThrow(/not supported/);
  });

  it('refuses something that is not an object schema', () => {
    expect(() => compileToolArguments({ type: 'array' } as never)).toThrow(/must have type "object"/);
    expect(() => compileToolArguments(z.string() as never)).toThrow(/zod object schema/);
  });
});

describe('modelParametersSchema', () => {
  it('passes a JSON Schema object through, as a copy', () => {
    const schema = modelParametersSchema(greetingSchema);
    expect(schema).toEqual(greetingSchema);
    expect(schema).not.toBe(greetingSchema);
    expect(schema.properties).not.toBe(greetingSchema.properties);
  });

  it('converts a zod object to its draft-7 input schema without $schema or the safe-integer bounds', () => {
    const schema = modelParametersSchema(
      z.object({
        query: z.string().max(8).describe('搜索词'),
        limit: z.int().default(10),
        page: z.int().min(1),
        tags: z.array(z.object({ weight: z.int() })).optional(),
      }),
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: 8, description: '搜索词' },
        limit: { type: 'integer', default: 10 },
        page: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'object', properties: { weight: { type: 'integer' } }, required: ['weight'] } },
      },
      required: ['query', 'page'],
      additionalProperties: false,
    });
  });

  it('keeps the bounds inside data keywords such as default', () => {
    const schema = modelParametersSchema(z.object({ big: z.number().default(Number.MAX_SAFE_INTEGER) }));
    expect(schema.properties?.['big']).toEqual({ type: 'number', default: Number.MAX_SAFE_INTEGER });
  });

  it('turns empty parameters into { type: object, properties: {}, additionalProperties: false }', () => {
    const empty = { type: 'object', properties: {}, additionalProperties: false };
    expect(modelParametersSchema({ type: 'object', properties: {}, required: [] })).toEqual(empty);
    expect(modelParametersSchema({ type: 'object' })).toEqual(empty);
    expect(modelParametersSchema(z.object({}))).toEqual(empty);
    expect(modelParametersSchema(z.strictObject({}))).toEqual(empty);
  });

  it('throws for a zod schema JSON Schema cannot express', () => {
    expect(() => modelParametersSchema(z.object({ at: z.date() }))).toThrow(/cannot be represented/);
  });
});
