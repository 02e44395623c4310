import type { BotPersona } from '../bot-accounts.js';
import type { ActiveChatRule } from './active-chat-rule.js';

/** The chat's persona with the settings of the rule's `persona` over it (what the rule leaves out stays). */
export function personaWithRule(persona: BotPersona, rule: ActiveChatRule | undefined): BotPersona {
  if (rule === undefined) return persona;
  const defined = Object.fromEntries(Object.entries(rule.persona).filter(([, value]) => value !== undefined));
  return Object.keys(defined).length === 0 ? persona : { ...persona, ...defined };
}
