// A third-party plugin: dropped into plugins/, loaded at the next start, no build step.
import * as z from 'zod';
import { PluginConfig, ToolExecutionResult, ToolPlugin, tool, type ToolInvocation } from 'moonglass';

export const DiceConfig = PluginConfig.extend({
  max_dice: z.number().int().min(1).max(100).default(10).describe('Most dice one roll may throw'),
});

export class DicePlugin extends ToolPlugin<z.output<typeof DiceConfig>> {
  static override configModel = DiceConfig;

  @tool({
    name: 'roll_dice',
    description: 'Use when someone asks to roll dice (for example "roll 2d6"). Returns each die and the total.',
    parameters: z.object({
      count: z.number().int().min(1).max(100).default(1).describe('How many dice'),
      sides: z.number().int().min(2).max(1000).default(6).describe('Sides per die'),
    }),
  })
  async rollDice(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    const { count, sides } = invocation.arguments as { count: number; sides: number };
    if (count > this.config.max_dice) {
      return ToolExecutionResult.fail(invocation.toolName, `最多一次掷 ${this.config.max_dice} 个骰子`);
    }
    const rolls = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * sides));
    const total = rolls.reduce((sum, roll) => sum + roll, 0);
    return ToolExecutionResult.ok(invocation.toolName, `${count}d${sides}: ${rolls.join(' + ')} = ${total}`);
  }
}
