/** One tool as an OpenAI-compatible API declares it to the model. */
export interface ToolDeclaration {
  /** Always `'function'`. */
  type: 'function';
  /** The function the model may call. */
  function: {
    /** The name the model calls it by. */
    name: string;
    /** When the model should use it; the model reads only this and the parameters. */
    description: string;
    /** The JSON Schema (an object schema) of the arguments. */
    parameters: Record<string, unknown>;
  };
}
