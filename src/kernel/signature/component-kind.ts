/** The kinds of component a plugin can contribute; the middle part of a signature. */
export const ComponentKind = {
  /** A long-lived object other components get with `getService(signature)`. */
  SERVICE: 'service',
  /** Something the model does in the chat (send text, wait, stop), offered to it like a tool. */
  ACTION: 'action',
  /** A function the model calls for information or an effect; its result goes back to the model. */
  TOOL: 'tool',
  /** A handler subscribed to events while its plugin is loaded ({@link BaseEventHandler}). */
  EVENT_HANDLER: 'event_handler',
  /** The conversation logic that answers a stream ({@link BaseChatter}). */
  CHATTER: 'chatter',
  /** A connection to a chat platform (QQ through OneBot, the sandbox …). */
  ADAPTER: 'adapter',
  /** A deterministic command matched before the chatter (`/help`, `/roll 2d6`). */
  COMMAND: 'command',
} as const;

export type ComponentKind = (typeof ComponentKind)[keyof typeof ComponentKind];

/** Every {@link ComponentKind} value, in declaration order. */
export const COMPONENT_KINDS: readonly ComponentKind[] = Object.values(ComponentKind);

export function isComponentKind(value: unknown): value is ComponentKind {
  return typeof value === 'string' && (COMPONENT_KINDS as readonly string[]).includes(value);
}
