/**
 * How much a tool changes the world. `readonly` tools are available by default,
 * `reversible` ones only when enabled explicitly, `irreversible` ones are refused by the
 * tool registry.
 */
export const SideEffect = {
  /** Only reads (a lookup, a search); offered by default. */
  READONLY: 'readonly',
  /**
   * Changes something that can be undone; offered only when
   * `features.toml [tools] reversible_enabled` names the tool.
   */
  REVERSIBLE: 'reversible',
  /** Changes something for good; the tool registry refuses to register it. */
  IRREVERSIBLE: 'irreversible',
} as const;

export type SideEffect = (typeof SideEffect)[keyof typeof SideEffect];

/** Every {@link SideEffect} value, from least to most change. */
export const SIDE_EFFECTS: readonly SideEffect[] = Object.values(SideEffect);
