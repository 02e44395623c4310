import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import { LlmTaskError } from './errors/llm-task-error.js';
import { ModelRequestError } from './errors/model-request-error.js';
import { LLMRequest, type LLMRequestInit } from './llm-request.js';
import type { ModelClient } from './model-client.js';
import type { ModelsConfig, ProviderConfig } from './models-config.js';
import { OpenAiCompatibleClient } from './openai-compatible-client.js';
import type { ResolvedModel } from './resolved-model.js';
import { ScriptedModel } from './scripted-model.js';

/** The task whose models serve tasks that list none. */
export const FALLBACK_TASK = 'actor';

/** The name responses and events report for the offline demo model. */
export const OFFLINE_MODEL_NAME = 'offline-demo';

/** The provider name calls to the offline demo model carry (`ModelCall.provider`). */
export const OFFLINE_PROVIDER = 'offline';

export interface LlmServiceOptions {
  /** The validated `config/models.toml` (see `loadModelsConfig`). */
  config: ModelsConfig;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /**
   * The client for a provider, instead of the default `OpenAiCompatibleClient` built from
   * its config; returning `undefined` keeps the default. For tests and custom transports.
   */
  clientFor?(providerName: string, provider: ProviderConfig): ModelClient | undefined;
  /** The model used when no provider is configured (default: a `ScriptedModel` following its demo rule). */
  offlineModel?: ModelClient;
  /**
   * The client every call goes through instead of its provider's (the host passes a facade of
   * `TOKENS.ModelClient`, whose default is `providerRouter`). Default: the provider's client.
   */
  client?: ModelClient;
}

/**
 * Builds LLM requests for tasks. One `ModelClient` per provider in `config/models.toml`;
 * with no provider at all, every task is answered by the offline demo model, and the
 * service says so once in the log.
 */
export class LlmService {
  readonly #config: ModelsConfig;
  readonly #bus: EventBus;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #clients = new Map<string, ModelClient>();
  readonly #offlineModels: readonly ResolvedModel[] | undefined;
  readonly #through: ModelClient | undefined;
  #offlineClient: ModelClient | undefined;

  /**
   * Sends each call to the client of the provider it names (`call.provider`): what
   * `TOKENS.ModelClient` is bound to by default.
   */
  readonly providerRouter: ModelClient = {
    complete: (call, signal) => {
      const provider = call.provider ?? '';
      const client = this.#offlineClient ?? this.#clients.get(provider);
      if (client === undefined) {
        return Promise.reject(
          new ModelRequestError({ provider, baseUrl: '(none)', status: undefined, attempts: 1, retryable: false, reason: `no provider named "${provider}" is configured in config/models.toml` }),
        );
      }
      return client.complete(call, signal);
    },
  };

  constructor(options: LlmServiceOptions) {
    this.#config = options.config;
    this.#through = options.client;
    this.#bus = options.bus;
    this.#clock = options.clock;
    this.#logger = options.logger;
    const providers = Object.entries(options.config.providers);
    if (providers.length === 0) {
      const client = options.offlineModel ?? new ScriptedModel(undefined, { clock: options.clock, recordCalls: 0 });
      this.#offlineClient = client;
      this.#offlineModels = [
        { name: OFFLINE_MODEL_NAME, provider: OFFLINE_PROVIDER, providerModel: OFFLINE_MODEL_NAME, temperature: undefined, client: this.#through ?? client },
      ];
      this.#logger.info(
        'no model provider in config/models.toml: using the offline demo model (scripted replies, not a real LLM). Add a provider to talk to a real model.',
      );
      return;
    }
    this.#offlineModels = undefined;
    for (const [name, provider] of providers) {
      const client =
        options.clientFor?.(name, provider) ??
        new OpenAiCompatibleClient({
          baseUrl: provider.base_url,
          apiKey: provider.api_key,
          timeoutMs: Math.round(provider.timeout_s * 1000),
          maxRetries: provider.max_retries,
          providerName: name,
          clock: options.clock,
          logger: options.logger,
        });
      this.#clients.set(name, client);
    }
  }

  /** True when no provider is configured and the offline demo model answers every task. */
  get offline(): boolean {
    return this.#offlineModels !== undefined;
  }

  /**
   * A new request for `taskName`. Throws `LlmTaskError` when the task has no usable models:
   * a task that is not listed or lists none uses the models of `actor`, and fails when
   * `actor` lists none either.
   */
  createRequest(init: LLMRequestInit): LLMRequest {
    return new LLMRequest({ bus: this.#bus, clock: this.#clock, logger: this.#logger, models: this.modelsFor(init.taskName) }, init);
  }

  /**
   * True when models.toml lists models for `taskName` itself, rather than the task falling
   * back to `actor`'s (always false for the offline demo model).
   */
  hasOwnModels(taskName: string): boolean {
    if (this.#offlineModels !== undefined) return false;
    return (this.#config.tasks[taskName]?.models.length ?? 0) > 0;
  }

  /** The models that serve `taskName`, in fallback order. */
  modelsFor(taskName: string): readonly ResolvedModel[] {
    if (this.#offlineModels !== undefined) return this.#offlineModels;
    const own = this.#config.tasks[taskName]?.models ?? [];
    const names = own.length > 0 ? own : (this.#config.tasks[FALLBACK_TASK]?.models ?? []);
    if (names.length === 0) {
      const state = Object.hasOwn(this.#config.tasks, taskName) ? 'lists no models' : 'is not defined';
      throw new LlmTaskError(
        taskName,
        taskName === FALLBACK_TASK ? `the task ${state}` : `the task ${state} and the fallback task ${FALLBACK_TASK} lists no models`,
      );
    }
    return names.map((name) => {
      const model = this.#config.models[name];
      if (model === undefined) throw new LlmTaskError(taskName, `model "${name}" is not defined under [models]`);
      const client = this.#clients.get(model.provider);
      if (client === undefined) throw new LlmTaskError(taskName, `model "${name}" names provider "${model.provider}", which is not defined`);
      return { name, provider: model.provider, providerModel: model.model, temperature: model.temperature, client: this.#through ?? client };
    });
  }
}
