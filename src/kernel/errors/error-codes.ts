/**
 * Every error code moonglass throws, with its meaning. The README's error table is
 * checked against this list, and a test fails when an exported error class is missing.
 */
export const ERROR_CODES = {
  MG_SIGNATURE_INVALID: 'A component signature is not `<plugin_id>:<kind>:<name>` with a known kind and non-empty parts.',
  MG_SIGNATURE_COLLISION: 'Two components claim the same signature; the second registration is refused.',
  MG_COMPONENT_DECLARATION: 'A decorator was given a bad value (name, weight, subscribe list, timeout ...).',
  MG_COMPONENT_RESOLUTION: 'A bound component could not be built by the container (a throwing constructor), or a plugin\'s components inject something nothing provides (checked at load).',
  MG_BINDING_OVERRIDE: 'An override names something that cannot be overridden that way.',
  MG_SCOPE_INACTIVE: 'Something tried to register on a plugin scope that was already disposed.',
  MG_EVENT_PUBLISH: 'publishEvent was called with an empty event name or with params that are not a plain object.',
  MG_HOST_STATE: 'A host method was called in the wrong lifecycle state (start() twice, config before start()).',
  MG_HOST_NOT_RUNNING: 'A module-level function (getService, publishEvent ...) was called while no host, or more than one, is running.',
  MG_CONFIG_FILE: 'A configuration file cannot be read, parsed or validated; the message names the file and each field.',
  MG_TOOL_DECLARATION: 'A @tool declaration is invalid (sync body, bad name, missing description, duplicate name ...).',
  MG_TOOL_RESULT: 'A ToolExecutionResult failure was built without a reason (errorMessage).',
  MG_TOOL_REGISTRATION: 'The tool registry refused a tool: irreversible side effect, a name taken by another plugin, or an unusable schema.',
  MG_PLUGIN_MANIFEST: "A plugin's _manifest.json is missing, not JSON, or has a bad field; the plugin is skipped before its code runs.",
  MG_PLUGIN_ENTRY: "A plugin's entry file is missing, fails to import, or does not export exactly one ToolPlugin subclass.",
  MG_PLUGIN_NOT_READY: 'A plugin read this.ctx or this.config before the host set them (before onLoad).',
  MG_PLUGIN_CONFIG: "A plugin's config model or config.toml cannot be used (a required field without a default, a bad model).",
  MG_STORAGE: 'The database cannot be used: not SQLite, a schema newer than this code, a failed migration, a refused write.',
  MG_MODEL_REQUEST: 'A call to a model endpoint failed (HTTP error, network, timeout, a body that is not a chat completion); never carries the API key.',
  MG_LLM_REQUEST_FAILED: 'Every model of a task failed for one request; the message lists each model and why.',
  MG_LLM_BUDGET_SPENT: "A task's daily token budget (models.toml [tasks.<name>] daily_token_budget) is spent; its requests fail before any model is called until the next local day.",
  MG_LLM_TASK: 'A task has no usable model (unknown or empty with no actor models, or naming an undefined model or provider).',
  MG_PROMPT: 'A prompt template is unknown, registered twice, or misses a value in strict mode.',
  MG_ADAPTER: 'An adapter cannot be found, its manifest or config is unusable, its process could not start, or a send or platform action through it failed.',
  MG_MCP_UNAVAILABLE: 'An MCP tool cannot be called now: not listed in config/mcp.toml, not confirmed read-only, its server not connected, or its daily quota spent. The message is the Chinese reason.',
  MG_DATA_FOLDER_LOCKED: 'Another moonglass host (the message names its process) is running on the same data folder; a second one refuses to start.',
  MG_INVALID_ARGUMENT: 'A public function was called with an argument outside its documented range.',
} as const;

/** One `MG_…` code of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;
