import { describe, expect, it } from 'vitest';
import { formatToolCall, readToolCallNotice } from '../../src/adapters/console/format-tool-call.js';

describe(formatToolCall, () => {
  it('[issue 15] shows a call as one short line: name, arguments, the result after an arrow', () => {
    expect(formatToolCall({ name: 'roll_dice', args: { count: 2 }, success: true, observation: '2d6: 6 + 3 = 9', errorMessage: null })).toBe(
      '· roll_dice {"count":2} → 2d6: 6 + 3 = 9',
    );
    expect(formatToolCall({ name: 'now', args: {}, success: true, observation: '', errorMessage: null })).toBe('· now → (no output)');
  });

  it('[issue 15] shows a failure with its reason, and cuts long or multi-line results to one line', () => {
    expect(formatToolCall({ name: 'roll_dice', args: { count: 50 }, success: false, observation: '', errorMessage: '最多一次掷 10 个骰子' })).toBe(
      '· roll_dice {"count":50} ✗ 最多一次掷 10 个骰子',
    );
    const line = formatToolCall({ name: 'read_page', args: { text: 'x'.repeat(500) }, success: true, observation: `第一行\n第二行\n${'字'.repeat(500)}`, errorMessage: null });
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^· read_page \{"text":"x+… → 第一行 第二行 字+…$/);
    expect([...line].length).toBeLessThan(220);
  });

  it('reads what crossed the process boundary defensively: a wrong type becomes an empty value, not a crash', () => {
    expect(readToolCallNotice({ name: 'x', args: [1, 2], success: 'yes', observation: 7 })).toEqual({ name: 'x', args: {}, success: false, observation: '', errorMessage: null });
  });
});
