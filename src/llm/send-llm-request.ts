import { copyPlainData } from '../kernel/copy-plain-data.js';
import { MoonglassError } from '../kernel/errors/moonglass-error.js';
import { LlmRequestFailedError, type ModelFailure } from './errors/llm-request-failed-error.js';
import type { ModelRequestError } from './errors/model-request-error.js';
import type { BeforeLlmRequestPayload } from './llm-event-payloads.js';
import type { LlmRequestContext } from './llm-request-context.js';
import type { LLMRequest, SendOptions } from './llm-request.js';
import { LLMResponse } from './llm-response.js';
import type { ModelCall } from './model-client.js';

function isModelRequestError(error: unknown): error is ModelRequestError {
  return MoonglassError.hasCode(error, 'MG_MODEL_REQUEST');
}

/** The body of `LLMRequest.send`: events, then the task's models in order. */
export async function sendLlmRequest(request: LLMRequest, context: LlmRequestContext, options: SendOptions): Promise<LLMResponse> {
  const { bus, clock, logger } = context;
  const identity = { request_name: request.requestName, stream_id: request.streamId, task_name: request.taskName };
  let payloads: LLMRequest['payloads'];
  let tools: LLMRequest['tools'];
  if (bus.hasSubscribers('before_llm_request')) {
    // Copies: what handlers change applies to this send only, not to the request's history.
    const beforeParams: BeforeLlmRequestPayload = {
      ...identity,
      payloads: copyPlainData(request.payloads),
      tools: copyPlainData(request.tools),
    };
    ({ payloads, tools } = (await bus.publish('before_llm_request', beforeParams)).params);
  } else {
    // Nobody to edit them: the request's own lists are sent as they are (a deep copy of the
    // prompt and every tool schema was ~6% of a turn). The model client and the
    // after_llm_request handlers only read them.
    ({ payloads, tools } = request);
  }
  if (!Array.isArray(payloads)) {
    logger.warn(identity, 'a before_llm_request handler left payloads that are not a list; sending the request as it was');
    payloads = copyPlainData(request.payloads);
  }
  if (!Array.isArray(tools)) {
    logger.warn(identity, 'a before_llm_request handler left tools that are not a list; sending the tools as they were');
    tools = copyPlainData(request.tools);
  }
  const signal = options.signal ?? new AbortController().signal;
  const started = clock.now();
  const failures: ModelFailure[] = [];
  let lastError: unknown;
  for (const model of context.models) {
    const call: ModelCall = { model: model.providerModel, provider: model.provider, payloads, tools };
    if (model.temperature !== undefined) call.temperature = model.temperature;
    if (options.stream === true) call.stream = true;
    let reply;
    try {
      reply = await model.client.complete(call, signal);
    } catch (error) {
      // Cancellation and programming errors are not a reason to try another model.
      if (!isModelRequestError(error)) throw error;
      lastError = error;
      failures.push({ model: model.name, provider: model.provider, reason: error.message });
      logger.warn({ ...identity, model: model.name, provider: model.provider, error: error.message }, `model ${model.name} failed`);
      continue;
    }
    const after = await bus.publish('after_llm_request', {
      ...identity,
      model: model.name,
      payloads,
      response_message: reply.message,
      tool_calls: reply.toolCalls,
      usage: reply.usage,
      duration_ms: clock.now() - started,
    });
    const message = typeof after.params.response_message === 'string' ? after.params.response_message : reply.message;
    const toolCalls = Array.isArray(after.params.tool_calls) ? after.params.tool_calls : reply.toolCalls;
    return new LLMResponse(request, model.name, { ...reply, message, toolCalls });
  }
  const error = new LlmRequestFailedError(request.taskName, request.requestName, failures, { cause: lastError });
  await bus.publish('on_llm_request_failed', { ...identity, payloads, error });
  throw error;
}
