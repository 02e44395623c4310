/** Marks the start and the end of the example block in the default `models.toml` (tests uncomment it). */
export const MODELS_EXAMPLE_BEGIN = '# ---- example: remove the leading "# " from the lines below ----';
export const MODELS_EXAMPLE_END = '# ---- end of example ----';

/**
 * The commented `config/models.toml` written on first start: no providers (the offline demo
 * model), every key explained, and an example for a local Ollama server and an
 * OpenAI-style hosted API that works once uncommented.
 */
export const MODELS_CONFIG_DEFAULT_TEXT = `# moonglass model settings: the OpenAI-compatible endpoints the bot talks to.
# Written on first start; edit freely. Delete this file to get a fresh default one at the next start.
#
# With no [providers] the bot uses the offline demo model: scripted replies, no real LLM.
#
# [providers.<name>]   an OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, hosted APIs)
#   base_url      the API root, e.g. http://localhost:11434/v1 (/chat/completions is appended)
#   api_key       secret, sent as "Authorization: Bearer <key>"; "" sends none. Never logged.
#   timeout_s     seconds one attempt may take (default 60)
#   max_retries   retries on 429, 5xx, network errors and timeouts (default 2)
#
# [models.<name>]      a model the bot can use
#   provider      a name under [providers]
#   model         the provider's own model id
#   temperature   optional, 0 to 2; omitted: the provider's default
#
# [tasks.<name>]       the models of a task, in order: when one fails the next is tried
#   models        a list of names under [models]
#   Tasks: actor (the main conversation), sub_actor, vlm (images), video, utils ...
#   A task that is not listed, or lists no models, uses the models of actor.
#   daily_token_budget   optional: most tokens (prompt + completion, as the provider
#                 reports them) the task may use per day, in bot.toml [bot] timezone.
#                 Once spent, its requests fail (the bot goes quiet, the messages stay
#                 unread) until 00:00, and each owner gets one private notice.
#                 Read at start: restart the bot after raising it.
#                 e.g. daily_token_budget = 200000
#
${MODELS_EXAMPLE_BEGIN}
# [providers.ollama]
# base_url = "http://localhost:11434/v1"
# api_key = ""            # Ollama ignores the key
#
# [providers.openai]
# base_url = "https://api.openai.com/v1"
# api_key = ""            # your key goes here; keep this file private
# timeout_s = 60
# max_retries = 2
#
# [models.qwen-local]
# provider = "ollama"
# model = "qwen2.5:7b"
#
# [models.gpt-mini]
# provider = "openai"
# model = "gpt-4o-mini"
# temperature = 0.7
#
# [tasks.actor]
# models = ["gpt-mini", "qwen-local"]   # gpt-mini first, the local model when it fails
#
# [tasks.utils]
# models = ["qwen-local"]
${MODELS_EXAMPLE_END}
`;
