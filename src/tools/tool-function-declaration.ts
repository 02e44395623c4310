import type { JsonObjectSchema } from '../kernel/components/parameters-schema.js';

/** One tool as an OpenAI-compatible API declares it to the model. */
export interface ToolFunctionDeclaration {
  /** Always `'function'`. */
  type: 'function';
  /** The function the model may call. */
  function: {
    /** The tool's name. */
    name: string;
    /** The tool's description, as its `@tool` spec gives it. */
    description: string;
    /** The JSON Schema of the arguments, see `modelParametersSchema`. */
    parameters: JsonObjectSchema;
  };
}
