// The copy-me example: one readonly tool and a config model. Copy this folder into plugins/,
// change the id in _manifest.json (third-party plugins also declare host_application), start.
import * as z from 'zod';
import { PluginConfig, ToolExecutionResult, ToolPlugin, tool, type ToolContext, type ToolInvocation } from 'moonglass';

const MAX_NAME_LENGTH = 32;

export const HelloYueliConfig = PluginConfig.extend({
  enabled: z.boolean().default(false).describe('是否启用示例插件；默认关闭，改成 true 后重启生效'),
  greeting: z.string().min(1).default('你好').describe('问候语，会出现在回复开头'),
});

export type HelloYueliConfig = z.output<typeof HelloYueliConfig>;

export class HelloYueliPlugin extends ToolPlugin<HelloYueliConfig> {
  static override configModel = HelloYueliConfig;

  #greeting = '你好';

  override async onLoad(): Promise<void> {
    this.#greeting = this.config.greeting;
    this.ctx.logger.debug({ greeting: this.#greeting }, 'hello-yueli ready');
  }

  @tool({
    name: 'hello_yueli',
    description: '当用户明确要求演示插件工具时调用，返回一句问候。',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: '称呼', maxLength: MAX_NAME_LENGTH } },
      required: [],
      additionalProperties: false,
    },
    sideEffect: 'readonly',
  })
  async helloYueli(invocation: ToolInvocation, _context: ToolContext): Promise<ToolExecutionResult> {
    // The registry has validated the arguments against the schema; the name is a short string or absent.
    const name = typeof invocation.arguments['name'] === 'string' ? invocation.arguments['name'].trim() : '';
    return new ToolExecutionResult({
      toolName: invocation.toolName,
      success: true,
      observation: name === '' ? `${this.#greeting}！` : `${this.#greeting}，${name}！`,
    });
  }
}
