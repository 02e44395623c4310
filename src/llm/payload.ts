import type { ToolCall } from './tool-call.js';

/** A piece of a multimodal user message, in the OpenAI form. */
export type ContentPart =
  | {
      /** A piece of text. */
      type: 'text';
      /** The text itself. */
      text: string;
    }
  | {
      /** An image by URL. */
      type: 'image_url';
      /** Where the image is and how closely the model should look. */
      image_url: {
        /** An `http(s)` URL or a `data:` URL with the image inline. */
        url: string;
        /** The provider's resolution hint; omitted means the provider's default. */
        detail?: 'low' | 'high' | 'auto';
      };
    }
  /** A video by URL (Qwen-VL and other video-capable OpenAI-compatible servers). */
  | {
      /** A video by URL. */
      type: 'video_url';
      /** Where the video is. */
      video_url: {
        /** An `http(s)` URL or a `data:` URL with the video inline. */
        url: string;
      };
    };

/** The instructions that frame the conversation. */
export interface SystemPayload {
  /** Always `'system'`. */
  role: 'system';
  /** The instructions, as text. */
  content: string;
}

/** What the user (or the chatter, on the user's behalf) says: text, or text and images. */
export interface UserPayload {
  /** Always `'user'`. */
  role: 'user';
  /** Text, or a list of text and media parts ({@link ContentPart}). */
  content: string | ContentPart[];
}

/** What the model answered, with the tool calls it asked for (kept verbatim for the next turn). */
export interface AssistantPayload {
  /** Always `'assistant'`. */
  role: 'assistant';
  /** The model's visible text; `''` when it only called tools. */
  content: string;
  /** The calls the model asked for; absent when it made none. */
  tool_calls?: ToolCall[];
}

/** The result of one tool call, answering the assistant payload's call with `tool_call_id`. */
export interface ToolResultPayload {
  /** Always `'tool'`. */
  role: 'tool';
  /** The id of the call this answers, from the assistant payload's `tool_calls`. */
  tool_call_id: string;
  /** The tool's name, for readers and providers that want it. */
  name: string;
  /** What the tool returned (or why it failed), as the model reads it. */
  content: string;
}

/**
 * One message of an LLM conversation, tagged by `role`. The key spelling follows the
 * OpenAI chat format, which is also what `before_llm_request` handlers see and edit.
 */
export type LLMPayload = SystemPayload | UserPayload | AssistantPayload | ToolResultPayload;
