// plugins/dice/: the example plugin of a new bot project, with its test beside it.

/** A third-party manifest must name the host versions it works with: this moonglass's major.minor. */
export function diceManifest(hostVersion: string): string {
  const [major, minor] = hostVersion.split('.');
  const manifest = {
    manifest_version: 1,
    id: 'example.dice',
    plugin_type: 'tool',
    name: 'Dice',
    version: '1.0.0',
    description: 'Rolls dice when someone in the chat asks for a roll. The example plugin of this bot project.',
    host_application: { min_version: hostVersion, max_version: `${major}.${minor}.99` },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export const DICE_PLUGIN = `// A plugin: a folder in plugins/ with _manifest.json and plugin.ts, loaded at the next start
// (no build step). Its settings come from DiceConfig: config.toml is written beside it.
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
      return ToolExecutionResult.fail(invocation.toolName, \`最多一次掷 \${this.config.max_dice} 个骰子\`);
    }
    const rolls = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * sides));
    const total = rolls.reduce((sum, roll) => sum + roll, 0);
    return ToolExecutionResult.ok(invocation.toolName, \`\${count}d\${sides}: \${rolls.join(' + ')} = \${total}\`);
  }
}
`;

export const DICE_TEST = `// A test beside its plugin: a host with a scripted model and a fake chat, no network.
import { describe, expect, it } from 'vitest';
import { createTestHost } from 'moonglass/testing';

describe('plugins/dice', () => {
  it('rolls when the model calls roll_dice, and the model hears the roll', async () => {
    const test = await createTestHost({
      plugins: ['plugins/dice'],
      // The model's replies, call by call.
      script: [
        { toolCalls: [{ id: 'c1', name: 'roll_dice', args: { count: 2, sides: 6 } }] },
        { toolCalls: [{ id: 'c2', name: 'send_text', args: { content: '掷好了' } }] },
        { message: '' }, // nothing more to say: the turn ends
      ],
      pluginConfigs: { neo_default_chatter: '[plugin]\\nenable_action_suspend = false\\n' },
    });
    try {
      await test.adapter.send('帮我掷两个骰子');
      await test.settle(15_000);
      const result = test.model.calls[1]?.payloads.find((payload) => payload.role === 'tool');
      expect(String(result?.content)).toMatch(/^2d6: [1-6] \\+ [1-6] = \\d+$/);
      expect(test.adapter.texts()).toEqual(['掷好了']);
    } finally {
      await test.stop();
    }
  });
});
`;
