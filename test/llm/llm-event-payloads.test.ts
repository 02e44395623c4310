import { describe, expectTypeOf, it } from 'vitest';
import type { EventParams } from '../../src/kernel/event-bus/event-payloads.js';
import type { AfterLlmRequestPayload, BeforeLlmRequestPayload, LlmRequestFailedPayload } from '../../src/llm/llm-event-payloads.js';

// Checked by `npm run typecheck`: the LLM layer adds its events to EventPayloads by declaration merging.
describe('LLM event payloads (types)', () => {
  it('types before_llm_request, after_llm_request and on_llm_request_failed', () => {
    expectTypeOf<EventParams<'before_llm_request'>>().toEqualTypeOf<BeforeLlmRequestPayload>();
    expectTypeOf<EventParams<'after_llm_request'>>().toEqualTypeOf<AfterLlmRequestPayload>();
    expectTypeOf<EventParams<'on_llm_request_failed'>>().toEqualTypeOf<LlmRequestFailedPayload>();
    expectTypeOf<BeforeLlmRequestPayload['request_name']>().toEqualTypeOf<string>();
    expectTypeOf<BeforeLlmRequestPayload['stream_id']>().toEqualTypeOf<string>();
  });
});
