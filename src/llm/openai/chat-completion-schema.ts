import * as z from 'zod';

/** A tool call in a response message. Only `function.name` is required: local servers vary. */
const ResponseToolCallSchema = z.object({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({
    name: z.string(),
    /** A JSON string by the spec; an object or nothing from some servers. */
    arguments: z.unknown().optional(),
  }),
});

/** The body of a non-streaming `POST /chat/completions` answer, as far as moonglass reads it. */
export const ChatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          /** Ollama and OpenRouter spell it `reasoning`. */
          reasoning: z.string().nullish(),
          tool_calls: z.array(ResponseToolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.unknown().optional(),
});

/** One `data:` event of a streamed answer. */
export const ChatCompletionChunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative().optional(),
                  id: z.string().nullish(),
                  type: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: z.unknown().optional() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z.unknown().optional(),
  /** Some servers report a failure inside the stream. */
  error: z.unknown().optional(),
});

export type ChatCompletion = z.output<typeof ChatCompletionSchema>;
export type ChatCompletionChunk = z.output<typeof ChatCompletionChunkSchema>;
