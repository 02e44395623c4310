import type { LlmService } from '../llm/llm-service.js';
import type { ContentPart } from '../llm/payload.js';
import { cleanDescription } from './format-media-text.js';
import { MediaFailure } from './media-failure.js';

export interface MediaModelQuestion {
  /** `vlm` for images, `video` for videos. */
  taskName: string;
  /** Who asks, for `before_llm_request` filters (`describe_image`, `describe_video`). */
  requestName: string;
  /** One user message: the instruction and the media part. */
  content: ContentPart[];
  signal: AbortSignal;
}

/**
 * Asks the task's models about one image or video (not streamed) and returns the answer
 * cleaned to one short line. Throws `MediaFailure` for an empty answer; a task without
 * models, a failing model or an abort throw what the LLM layer threw.
 */
export async function askMediaModel(llm: LlmService, question: MediaModelQuestion): Promise<string> {
  const request = llm.createRequest({
    taskName: question.taskName,
    requestName: question.requestName,
    payloads: [{ role: 'user', content: question.content }],
  });
  const response = await request.send({ signal: question.signal });
  const description = cleanDescription(response.message);
  if (description === '') throw new MediaFailure(`the model ${response.model} gave an empty answer`);
  return description;
}
