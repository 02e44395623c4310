import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseCommandInput } from '../../src/commands/parse-command-input.js';
import { tokenizeCommandLine } from '../../src/commands/tokenize-command-line.js';
import { commandUsage } from '../../src/commands/command-usage.js';

const roll = {
  name: 'roll',
  args: { count: z.coerce.number().int().min(1), sides: z.coerce.number().int().default(6) },
  rest: false,
  options: { label: z.string().optional(), verbose: z.boolean().optional(), times: z.coerce.number().default(1) },
  short: { v: 'verbose' },
};

describe('tokenizeCommandLine', () => {
  it('groups double and single quotes and keeps backslash-escaped characters', () => {
    const result = tokenizeCommandLine(`say "two words" 'it''s' a\\ b "q\\"x"`);
    expect(result.ok && result.tokens.map((token) => token.value)).toEqual(['say', 'two words', 'its', 'a b', 'q"x']);
  });

  it('refuses an unclosed quote', () => {
    const result = tokenizeCommandLine('say "oops');
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('引号没有闭合') });
  });
});

describe('parseCommandInput', () => {
  it('coerces positional arguments through their schemas and applies defaults', () => {
    expect(parseCommandInput('3', roll)).toEqual({ ok: true, input: { args: { count: 3, sides: 6 }, options: { label: undefined, verbose: undefined, times: 1 } } });
    expect(parseCommandInput('2 20', roll)).toMatchObject({ ok: true, input: { args: { count: 2, sides: 20 } } });
  });

  it('reads --name value, --name=value, boolean flags and short flags anywhere', () => {
    const result = parseCommandInput('--label "火 球" 2 --times=3 -v', roll);
    expect(result).toEqual({ ok: true, input: { args: { count: 2, sides: 6 }, options: { label: '火 球', verbose: true, times: 3 } } });
    expect(parseCommandInput('2 --verbose=false', roll)).toMatchObject({ ok: true, input: { options: { verbose: false } } });
  });

  it('names a missing argument, an extra one, a wrong value and an unknown option', () => {
    expect(parseCommandInput('', roll)).toEqual({ ok: false, reason: '缺少参数 count' });
    expect(parseCommandInput('1 2 3', roll)).toEqual({ ok: false, reason: '多余的参数：3' });
    expect(parseCommandInput('zero', roll)).toMatchObject({ ok: false, reason: expect.stringContaining('参数 count 不对') });
    expect(parseCommandInput('0', roll)).toMatchObject({ ok: false, reason: expect.stringContaining('参数 count 不对') });
    expect(parseCommandInput('1 --nope', roll)).toEqual({ ok: false, reason: '未知选项 --nope' });
    expect(parseCommandInput('1 --label', roll)).toEqual({ ok: false, reason: '选项 --label 需要一个值' });
  });

  it('takes a negative number as a value, and "--" ends the options', () => {
    const signed = { ...roll, args: { delta: z.coerce.number() } };
    expect(parseCommandInput('-3', signed)).toMatchObject({ ok: true, input: { args: { delta: -3 } } });
    expect(parseCommandInput('-- "--5"', { ...roll, args: { text: z.string() } })).toMatchObject({ ok: true, input: { args: { text: '--5' } } });
  });

  it('gives a rest argument the rest of the line as written', () => {
    const say = { ...roll, args: { target: z.string(), text: z.string() }, rest: true };
    expect(parseCommandInput('--times 2 bob  hello   "quoted" world', say)).toMatchObject({ ok: true, input: { args: { target: 'bob', text: 'hello   "quoted" world' }, options: { times: 2 } } });
  });

  it('writes the usage line with required, optional and flag forms', () => {
    expect(commandUsage('/', roll)).toBe('/roll <count> [sides] [--label <label>] [-v|--verbose] [--times <times>]');
  });
});
