import { SideEffect } from '../tools/side-effect.js';
import type { InspectedTool } from './inspect-plugins.js';

/**
 * One problem per name in `features.toml [tools] reversible_enabled` that no loaded plugin
 * declares as a tool (a typo, or a plugin that is missing, switched off or failed): such an
 * entry enables nothing, and the tool it was meant for stays hidden from the model.
 */
export function undeclaredReversibleNames(featuresFile: string, enabled: readonly string[], tools: readonly InspectedTool[]): string[] {
  const declared = new Set(tools.map((tool) => tool.name));
  const reversible = tools.filter((tool) => tool.sideEffect === SideEffect.REVERSIBLE).map((tool) => tool.name);
  const known = reversible.length === 0 ? 'no loaded plugin declares a reversible tool' : `reversible tools declared: ${reversible.join(', ')}`;
  return [...new Set(enabled)]
    .filter((name) => !declared.has(name))
    .map((name) => `${featuresFile} [tools] reversible_enabled: "${name}" is not a tool any loaded plugin declares (a typo, or its plugin is missing, switched off or failed); ${known}`);
}
