/**
 * moonglass/ndfc: what third parties need to extend and drive the default chatter
 * (neo_default_chatter): the event names, the typed payload of each, PreprocessDecision, and
 * the types of its service and sessions. At run time NDFC is reached only through
 * `getService('neo_default_chatter:service:chat_core')` (typed as `NeoChatterService` once
 * this module is imported).
 *
 * @module moonglass/ndfc
 */
export { NdfcEvent } from './plugins/built_in/neo_default_chatter/events/ndfc-event.js';
export { PreprocessDecision } from './plugins/built_in/neo_default_chatter/events/preprocess-decision.js';
export type * from './plugins/built_in/neo_default_chatter/events/ndfc-payloads.js';
export type { PreprocessDecisionInit } from './plugins/built_in/neo_default_chatter/events/preprocess-decision.js';
export type {
  ConversationSession,
  CreateSessionOptions,
  NdfcPluginHandle,
  NeoChatterService,
} from './plugins/built_in/neo_default_chatter/ndfc-api.js';
export type { NeoChatterConfig, SessionConfigSource } from './plugins/built_in/neo_default_chatter/session/session-config.js';
export type { NeoChatterConfigValues } from './plugins/built_in/neo_default_chatter/config.js';
