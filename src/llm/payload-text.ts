import type { LLMPayload } from './payload.js';

/** The text of a payload: its content, or the text parts of a multimodal message joined by newlines. */
export function payloadText(payload: LLMPayload): string {
  if (typeof payload.content === 'string') return payload.content;
  return payload.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
