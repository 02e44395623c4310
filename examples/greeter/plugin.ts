// plugins/greeter/plugin.ts  (beside _manifest.json: manifest_version 1, id, plugin_type "tool",
// name, version, description, host_application { min_version, max_version })
import * as z from 'zod';
import { PluginConfig, ToolExecutionResult, ToolPlugin, tool, type ToolInvocation } from 'moonglass';

export const GreeterConfig = PluginConfig.extend({
  greeting: z.string().default('你好').describe('问候语，会出现在回复开头'), // becomes a comment in config.toml
});

export class GreeterPlugin extends ToolPlugin<z.output<typeof GreeterConfig>> {
  static override configModel = GreeterConfig;

  @tool({ name: 'greet', description: '当用户要求打招呼时调用。', parameters: z.object({ name: z.string().max(32) }) })
  async greet(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    return ToolExecutionResult.ok(invocation.toolName, `${this.config.greeting}，${String(invocation.arguments['name'])}！`);
  }
}
