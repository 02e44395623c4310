import type { ToolDefinition } from './tool-definition.js';

/** A tool in the registry and who registered it. */
export interface RegisteredTool {
  /** The registering plugin's id. */
  owner: string;
  definition: ToolDefinition;
}
