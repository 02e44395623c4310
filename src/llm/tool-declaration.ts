/** One tool as an OpenAI-compatible API declares it to the model. */
export interface ToolDeclaration {
  type: 'function';
  function: {
    name: string;
    description: string;
    /** The JSON Schema (an object schema) of the arguments. */
    parameters: Record<string, unknown>;
  };
}
