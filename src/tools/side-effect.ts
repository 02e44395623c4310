/**
 * How much a tool changes the world. `readonly` tools are available by default,
 * `reversible` ones only when enabled explicitly, `irreversible` ones are refused by the
 * tool registry.
 */
export const SideEffect = {
  READONLY: 'readonly',
  REVERSIBLE: 'reversible',
  IRREVERSIBLE: 'irreversible',
} as const;

export type SideEffect = (typeof SideEffect)[keyof typeof SideEffect];

export const SIDE_EFFECTS: readonly SideEffect[] = Object.values(SideEffect);
