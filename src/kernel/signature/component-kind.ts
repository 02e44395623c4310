/** The kinds of component a plugin can contribute; the middle part of a signature. */
export const ComponentKind = {
  SERVICE: 'service',
  ACTION: 'action',
  TOOL: 'tool',
  EVENT_HANDLER: 'event_handler',
  CHATTER: 'chatter',
  ADAPTER: 'adapter',
  /** A deterministic command matched before the chatter (`/help`, `/roll 2d6`). */
  COMMAND: 'command',
} as const;

export type ComponentKind = (typeof ComponentKind)[keyof typeof ComponentKind];

export const COMPONENT_KINDS: readonly ComponentKind[] = Object.values(ComponentKind);

export function isComponentKind(value: unknown): value is ComponentKind {
  return typeof value === 'string' && (COMPONENT_KINDS as readonly string[]).includes(value);
}
