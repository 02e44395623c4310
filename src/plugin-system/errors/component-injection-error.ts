import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/**
 * A plugin's components inject something that nothing provides at load time (checked from
 * their metadata, before any of them is built); the plugin fails and all it registered is
 * undone. Each problem names the component, the argument and the missing identifier.
 */
export class ComponentInjectionError extends MoonglassError {
  /** The plugin that failed to load. */
  readonly pluginId: string;
  /** One line per unmet injection, naming the component, the argument and the missing identifier. */
  readonly problems: readonly string[];

  constructor(pluginId: string, problems: readonly string[], options: { cause?: unknown } = {}) {
    super('MG_COMPONENT_RESOLUTION', problems.join('; '), options);
    this.pluginId = pluginId;
    this.problems = problems;
  }
}
