import type { ModelClient } from './model-client.js';

/** A model of a task, ready to be called. */
export interface ResolvedModel {
  /** The model's name in `config/models.toml` (what events and responses report). */
  name: string;
  /** The provider's name in `config/models.toml`. */
  provider: string;
  /** The provider's own model id. */
  providerModel: string;
  temperature: number | undefined;
  client: ModelClient;
}
