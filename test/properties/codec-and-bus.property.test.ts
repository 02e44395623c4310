import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../src/adapters/onebot_v11/codec.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { isAcceptableResult, judgeHandlerResult } from '../../src/kernel/event-bus/handler-result.js';
import { compileToolArguments, validateToolArguments } from '../../src/tools/tool-arguments.js';

// Property tests (issue 9): whatever comes in, no crash and a clear answer.

const jsonish = fc.jsonValue();

describe('properties of the boundaries', () => {
  it('[fuzz] the OneBot codec never throws: any text is a message, meta, response, ignored or invalid with a reason', () => {
    const frames = fc.oneof(
      fc.string(),
      jsonish.map((value) => JSON.stringify(value)),
      fc
        .record({
          post_type: fc.constantFrom('message', 'meta_event', 'notice', 'request', 'message_sent', 'other'),
          message_type: fc.constantFrom('private', 'group', 'x'),
          message_id: fc.oneof(fc.integer(), fc.string()),
          user_id: fc.oneof(fc.integer(), fc.string()),
          group_id: fc.oneof(fc.integer(), fc.string(), fc.constant(undefined)),
          self_id: fc.integer(),
          time: fc.integer(),
          message: fc.oneof(fc.string(), fc.array(fc.record({ type: fc.string(), data: fc.dictionary(fc.string(), jsonish) }))),
        }, { requiredKeys: [] })
        .map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(frames, (text) => {
        const decoded = decodeFrame(text);
        expect(['message', 'meta', 'response', 'ignored', 'invalid']).toContain(decoded.kind);
        if (decoded.kind === 'invalid') expect(decoded.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('[fuzz] the bus’s result check and its explanation agree on every value, and never throw', () => {
    const keys = ['stream_id', 'value'];
    const results = fc.oneof(
      jsonish,
      fc.tuple(fc.constantFrom(EventDecision.SUCCESS, EventDecision.PASS, EventDecision.STOP, 'MAYBE'), fc.dictionary(fc.constantFrom('stream_id', 'value', 'extra'), jsonish)),
      fc.array(fc.anything(), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(results, (result) => {
        const judged = judgeHandlerResult(result, keys);
        expect(judged.ok).toBe(isAcceptableResult(result, keys));
        if (!judged.ok) expect(judged.problem.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('[fuzz] tool-argument validation answers every input with a value or a Chinese reason, never a throw', () => {
    const validator = compileToolArguments({
      type: 'object',
      properties: { text: { type: 'string', maxLength: 20 }, count: { type: 'integer', minimum: 0, maximum: 9 } },
      required: ['text'],
      additionalProperties: false,
    });
    fc.assert(
      fc.property(fc.anything(), (args) => {
        const validation = validateToolArguments(validator, args);
        if (validation.ok) {
          expect(typeof validation.value['text']).toBe('string');
          expect(Object.keys(validation.value).every((key) => key === 'text' || key === 'count')).toBe(true);
        } else {
          expect(validation.reason).toMatch(/[\u4e00-\u9fff]/);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
