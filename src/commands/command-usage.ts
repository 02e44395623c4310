import type { CommandMetadata } from '../kernel/components/command-metadata.js';
import { acceptsMissing, descriptionOf, isBooleanSchema } from './schema-facts.js';

type UsageFacts = Pick<CommandMetadata, 'name' | 'args' | 'rest' | 'options' | 'short'>;

/** `/roll <count> [sides] [--times <times>] [-v|--verbose]`: `<…>` required, `[…]` optional. */
export function commandUsage(prefix: string, command: UsageFacts): string {
  const parts = [`${prefix}${command.name}`];
  const names = Object.keys(command.args);
  names.forEach((name, index) => {
    const label = command.rest && index === names.length - 1 ? `${name}...` : name;
    parts.push(acceptsMissing(command.args[name]!) ? `[${label}]` : `<${label}>`);
  });
  const shortOf = new Map(Object.entries(command.short).map(([letter, option]) => [option, letter]));
  for (const [name, schema] of Object.entries(command.options)) {
    const letter = shortOf.get(name);
    const flag = letter === undefined ? `--${name}` : `-${letter}|--${name}`;
    const text = isBooleanSchema(schema) ? flag : `${flag} <${name}>`;
    parts.push(acceptsMissing(schema) ? `[${text}]` : text);
  }
  return parts.join(' ');
}

/** The lines `/help <name>` shows: usage, description, aliases, what each argument and option is. */
export function commandHelp(prefix: string, command: UsageFacts & Pick<CommandMetadata, 'description' | 'aliases'>): string {
  const lines = [`用法：${commandUsage(prefix, command)}`, command.description];
  if (command.aliases.length > 0) lines.push(`别名：${command.aliases.map((alias) => `${prefix}${alias}`).join(' ')}`);
  for (const [name, schema] of Object.entries(command.args)) {
    const description = descriptionOf(schema);
    if (description !== undefined) lines.push(`  ${name}：${description}`);
  }
  for (const [name, schema] of Object.entries(command.options)) {
    const description = descriptionOf(schema);
    if (description !== undefined) lines.push(`  --${name}：${description}`);
  }
  return lines.join('\n');
}
