import { describe, expect, it } from 'vitest';
import { TraceRecorder } from '../../src/admin/trace-recorder.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import type { PublishTrace } from '../../src/kernel/event-bus/publish-tracer.js';

const DEDUPE = 'neo_default_chatter:dedupe_tool_call';
const FORMAT = 'neo_default_chatter:format_tool_result';

describe('TraceRecorder', () => {
  let time = 1_000;
  const publish = (recorder: TraceRecorder, event: string, params: Record<string, unknown>) => {
    const trace: PublishTrace = { event, startedAt: (time += 1), durationMs: 0, decision: EventDecision.SUCCESS, handlers: [] };
    recorder.record(trace, { stream_id: 's1', ...params });
  };
  const call = (name: string, content: string) => ({ id: `c-${content}`, name, args: { content } });

  describe('when a tool call is skipped as a duplicate', () => {
    it('[issue 13] marks the call’s :dedupe_tool_call publish "duplicate: <tool>", and no other publish', () => {
      const recorder = new TraceRecorder(() => time);
      const seen = new Set<string>();
      publish(recorder, 'on_chatter_step', {});
      publish(recorder, DEDUPE, { call: call('send_text', '好的'), seen_signatures: seen, is_duplicate: false });
      publish(recorder, DEDUPE, { call: call('roll_dice', '1d6'), seen_signatures: seen, is_duplicate: false });
      publish(recorder, DEDUPE, { call: call('send_text', '好的'), seen_signatures: seen, is_duplicate: false });
      publish(recorder, FORMAT, { call_name: 'send_text', kind: 'duplicate', args: { content: '好的' }, result_text: '' });
      const [turn] = recorder.turnsOf('s1');
      expect(turn!.publishes.map((entry) => [entry.event, entry.summary, entry.note])).toEqual([
        ['on_chatter_step', null, null],
        [DEDUPE, 'tool send_text', null],
        [DEDUPE, 'tool roll_dice', null],
        [DEDUPE, 'tool send_text', 'duplicate: send_text'],
        [FORMAT, null, null],
      ]);
    });

    it('[issue 13] marks the :format_tool_result publish when the call’s dedupe publish is not in the turn', () => {
      const recorder = new TraceRecorder(() => time);
      publish(recorder, 'on_chatter_step', {});
      publish(recorder, FORMAT, { call_name: 'send_text', kind: 'duplicate', args: { content: '好的' }, result_text: '' });
      expect(recorder.turnsOf('s1')[0]!.publishes.at(-1)).toMatchObject({ event: FORMAT, note: 'duplicate: send_text' });
    });
  });

  describe('when a tool result is not a duplicate', () => {
    it('[issue 13] leaves every publish without a note', () => {
      const recorder = new TraceRecorder(() => time);
      publish(recorder, DEDUPE, { call: call('pass_and_wait', ''), seen_signatures: new Set(), is_duplicate: false });
      publish(recorder, FORMAT, { call_name: 'pass_and_wait', kind: 'pass', args: { seconds: 5 }, result_text: '' });
      expect(recorder.turnsOf('s1')[0]!.publishes.map((entry) => entry.note)).toEqual([null, null]);
    });
  });
});
