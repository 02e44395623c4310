import { describe, expect, it } from 'vitest';
import { mergeMutations, PreprocessDecision } from '../../../src/plugins/built_in/neo_default_chatter/events/preprocess-decision.js';

describe(PreprocessDecision, () => {
  it('[N-34] has the seed\'s fields and defaults: proceed false, reason "", extra "", force_stop_minutes null, published false, raw_params {}', () => {
    expect({ ...new PreprocessDecision() }).toEqual({ proceed: false, reason: '', extra: '', force_stop_minutes: null, published: false, raw_params: {} });
  });

  it('[N-34] fromParams reads a published chain: extra merged from mutations, values of the wrong type as defaults', () => {
    const params = { proceed: true, reason: 'ok', mutations: '请简短回复', force_stop_minutes: null, stream_id: 's1' };
    expect(PreprocessDecision.fromParams(params)).toEqual(
      new PreprocessDecision({ proceed: true, reason: 'ok', extra: '请简短回复', force_stop_minutes: null, published: true, raw_params: params }),
    );
    const odd = PreprocessDecision.fromParams({ proceed: 'yes', reason: 3, mutations: null, force_stop_minutes: -1 });
    expect(odd).toMatchObject({ proceed: false, reason: '', extra: '', force_stop_minutes: null, published: true });
  });

  describe(mergeMutations, () => {
    it('uses a string as is, joins an object as key: value lines, and gives "" for nothing', () => {
      expect(mergeMutations('语气要温柔')).toBe('语气要温柔');
      expect(mergeMutations({ mood: '开心', topic: '游戏', count: 2, tags: ['a'] })).toBe('mood: 开心\ntopic: 游戏\ncount: 2\ntags: ["a"]');
      expect(mergeMutations({})).toBe('');
      expect(mergeMutations('')).toBe('');
      expect(mergeMutations(undefined)).toBe('');
      expect(mergeMutations(['x'])).toBe('');
    });
  });
});
