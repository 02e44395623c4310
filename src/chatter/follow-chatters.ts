import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { ChatLoop } from './chat-loop.js';

/**
 * Keeps the stream loop in step with the chatters registered: when one is unloaded, the runs
 * made from it end; when one is loaded (a plugin switched back on), the streams holding unread
 * messages are stepped at once, so what arrived while no chatter ran is answered. Returns the
 * unsubscribe.
 */
export function followChatters(bus: EventBus, loop: ChatLoop, streamsWithUnread: () => string[]): () => void {
  const options = { weight: -1_000_000, owner: 'moonglass', timeout: 0 };
  const offLoaded = bus.subscribe(
    'on_component_loaded',
    (_event, params) => {
      if (params.kind === 'chatter') loop.wakeUnread(streamsWithUnread());
      return [EventDecision.PASS, params];
    },
    { ...options, label: 'moonglass:wake_streams_for_chatter' },
  );
  const offUnloaded = bus.subscribe(
    'on_component_unloaded',
    async (_event, params) => {
      if (params.kind === 'chatter') await loop.chatterRemoved(params.signature);
      return [EventDecision.PASS, params];
    },
    { ...options, label: 'moonglass:end_runs_of_unloaded_chatter' },
  );
  return () => {
    offLoaded();
    offUnloaded();
  };
}
