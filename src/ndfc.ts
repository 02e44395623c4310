/**
 * moonglass/ndfc: what third parties need to extend the default chatter (neo_default_chatter)
 * through events: the event names, the typed payload of each, and PreprocessDecision.
 * Nothing else of NDFC is public; reach its session through
 * `getService('neo_default_chatter:service:chat_core')`.
 */
export { NdfcEvent } from './plugins/built_in/neo_default_chatter/events/ndfc-event.js';
export { PreprocessDecision } from './plugins/built_in/neo_default_chatter/events/preprocess-decision.js';
export type * from './plugins/built_in/neo_default_chatter/events/ndfc-payloads.js';
