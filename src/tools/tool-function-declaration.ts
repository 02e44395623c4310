import type { JsonObjectSchema } from '../kernel/components/parameters-schema.js';

/** One tool as an OpenAI-compatible API declares it to the model. */
export interface ToolFunctionDeclaration {
  type: 'function';
  function: {
    name: string;
    description: string;
    /** The JSON Schema of the arguments, see `modelParametersSchema`. */
    parameters: JsonObjectSchema;
  };
}
