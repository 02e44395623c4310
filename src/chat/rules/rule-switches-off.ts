import type { ActiveChatRule } from './active-chat-rule.js';

/** The plugin id of a component signature (`<plugin>:<kind>:<name>`). */
function pluginOf(signature: string): string {
  const colon = signature.indexOf(':');
  return colon === -1 ? signature : signature.slice(0, colon);
}

/**
 * Whether the rule switches off a tool, action or command: named (or its signature listed) in
 * `tools_off`, or a component of a plugin in `plugins_off`. No rule: nothing is off.
 */
export function ruleSwitchesOff(rule: ActiveChatRule | undefined, component: { readonly name: string; readonly signature: string }): boolean {
  if (rule === undefined) return false;
  if (rule.toolsOff.includes(component.name) || rule.toolsOff.includes(component.signature)) return true;
  return rule.pluginsOff.includes(pluginOf(component.signature));
}

/** Whether a command (switched off only with its plugin) is off under the rule. */
export function ruleSwitchesOffPlugin(rule: ActiveChatRule | undefined, pluginId: string): boolean {
  return rule !== undefined && rule.pluginsOff.includes(pluginId);
}
