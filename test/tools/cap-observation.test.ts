import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/kernel/errors/invalid-argument-error.js';
import { capObservation, MIN_OBSERVATION_MAX_CHARS, TRUNCATION_MARK } from '../../src/tools/cap-observation.js';

const codePoints = (text: string) => [...text].length;

describe('capObservation', () => {
  it('returns a text within the cap unchanged, including one exactly at the cap', () => {
    expect(capObservation('短文本', 40)).toBe('短文本');
    const exact = 'x'.repeat(40);
    expect(capObservation(exact, 40)).toBe(exact);
    expect(capObservation('', 40)).toBe('');
  });

  it('[T-11] clips a long observation to the cap, ending with the visible mark 「…（已截断）」', () => {
    const capped = capObservation('月'.repeat(1000), 100);
    expect(TRUNCATION_MARK).toBe('…（已截断）');
    expect(capped.endsWith('…（已截断）')).toBe(true);
    expect(codePoints(capped)).toBe(100);
    expect(capped.startsWith('月'.repeat(100 - codePoints(TRUNCATION_MARK)))).toBe(true);
  });

  it('clips a text one character over the cap', () => {
    const capped = capObservation('y'.repeat(41), 40);
    expect(codePoints(capped)).toBe(40);
    expect(capped.endsWith(TRUNCATION_MARK)).toBe(true);
  });

  it('counts code points, so emoji within the cap are kept and a surrogate pair is never split', () => {
    const emoji = '🌙'.repeat(40);
    expect(emoji.length).toBe(80);
    expect(capObservation(emoji, 40)).toBe(emoji);
    const capped = capObservation('a' + '🌙'.repeat(100), 40);
    expect(codePoints(capped)).toBe(40);
    expect(capped).toBe('a' + '🌙'.repeat(40 - 1 - codePoints(TRUNCATION_MARK)) + TRUNCATION_MARK);
    expect(capped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it(`refuses a cap below ${MIN_OBSERVATION_MAX_CHARS} or not an integer`, () => {
    expect(() => capObservation('x', MIN_OBSERVATION_MAX_CHARS - 1)).toThrow(InvalidArgumentError);
    expect(() => capObservation('x', 0)).toThrow(/maxChars must be an integer >= 32/);
    expect(() => capObservation('x', 100.5)).toThrow(InvalidArgumentError);
    expect(() => capObservation('x', Number.NaN)).toThrow(InvalidArgumentError);
    expect(capObservation('x', MIN_OBSERVATION_MAX_CHARS)).toBe('x');
  });
});
