import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';

/**
 * The events a turn's trace is read from. The bus traces only publishes that have a handler,
 * and nothing may handle these (a step, a tool call): the console listens to them itself.
 */
const TRACED_EVENTS = ['on_chatter_step', 'after_chatter_step', 'after_tool_call', 'after_llm_request', 'on_llm_request_failed'] as const;

const LABEL_PREFIX = 'moonglass:console_';

/** True for a handler of the console's own (the traces list the bot's handlers, not these). */
export function isConsoleObserver(label: string): boolean {
  return label.startsWith(LABEL_PREFIX);
}

/** Subscribes PASS observers (lowest weight, no timeout) so these events are traced; returns the unsubscribe. */
export function observeTracedEvents(bus: EventBus): () => void {
  const pass = ((_event: string, params: Record<string, unknown>) => [EventDecision.PASS, params]) as never;
  const unsubscribes = TRACED_EVENTS.map((event) =>
    bus.subscribe(event as never, pass, { weight: -1_000_000, label: `${LABEL_PREFIX}traces`, owner: 'moonglass', timeout: 0 }),
  );
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}
