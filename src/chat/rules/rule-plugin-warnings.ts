import type { ChatRuleConfig } from './chat-rules-config.js';

/** `bot.toml rules.N.plugins_off.M: …` for each plugin id a rule switches off that is not loaded (a typo, or a plugin that is gone). */
export function rulePluginWarnings(rules: readonly ChatRuleConfig[], loaded: ReadonlySet<string>): string[] {
  const warnings: string[] = [];
  for (const [index, rule] of rules.entries()) {
    for (const [position, id] of rule.plugins_off.entries()) {
      if (!loaded.has(id)) warnings.push(`bot.toml rules.${index}.plugins_off.${position}: no plugin "${id}" is loaded, so switching it off does nothing`);
    }
  }
  return warnings;
}
