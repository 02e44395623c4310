import type { ModelUsage } from '../model-client.js';

/** Token counts from an OpenAI `usage` object; `undefined` when absent or unreadable (never an error). */
export function parseUsage(value: unknown): ModelUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as Record<string, unknown>;
  const prompt = usage['prompt_tokens'];
  const completion = usage['completion_tokens'];
  if (typeof prompt !== 'number' && typeof completion !== 'number') return undefined;
  return {
    promptTokens: typeof prompt === 'number' ? prompt : 0,
    completionTokens: typeof completion === 'number' ? completion : 0,
  };
}
