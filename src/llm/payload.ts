import type { ToolCall } from './tool-call.js';

/** A piece of a multimodal user message, in the OpenAI form. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } }
  /** A video by URL (Qwen-VL and other video-capable OpenAI-compatible servers). */
  | { type: 'video_url'; video_url: { url: string } };

/** The instructions that frame the conversation. */
export interface SystemPayload {
  role: 'system';
  content: string;
}

/** What the user (or the chatter, on the user's behalf) says: text, or text and images. */
export interface UserPayload {
  role: 'user';
  content: string | ContentPart[];
}

/** What the model answered, with the tool calls it asked for (kept verbatim for the next turn). */
export interface AssistantPayload {
  role: 'assistant';
  content: string;
  tool_calls?: ToolCall[];
}

/** The result of one tool call, answering the assistant payload's call with `tool_call_id`. */
export interface ToolResultPayload {
  role: 'tool';
  tool_call_id: string;
  /** The tool's name, for readers and providers that want it. */
  name: string;
  content: string;
}

/**
 * One message of an LLM conversation, tagged by `role`. The key spelling follows the
 * OpenAI chat format, which is also what `before_llm_request` handlers see and edit.
 */
export type LLMPayload = SystemPayload | UserPayload | AssistantPayload | ToolResultPayload;
