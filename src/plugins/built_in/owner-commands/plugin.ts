import { z } from 'zod';
import { BaseCommand, command, defineCommand, ToolPlugin, type CommandContext, type CommandInput, type CommandOperator } from 'moonglass';

function operatorOf(context: CommandContext): CommandOperator {
  // The host gives the operator controls to owner commands only; these are all declared so.
  if (context.operator === undefined) throw new Error('这个命令拿不到主人控制（operator）');
  return context.operator;
}

function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  return `${days > 0 ? `${days} 天 ` : ''}${hours} 小时 ${minutes % 60} 分钟`;
}

function modelLines(operator: CommandOperator): string[] {
  const tasks = Object.entries(operator.models.tasks);
  if (tasks.length === 0) return ['模型：未配置任务（使用离线演示模型）'];
  return tasks.map(([task, config]) => `${task}：${config.models.join(' → ') || '（无）'}`);
}

const status = defineCommand({ description: '运行状态：运行时长、模型、今天的消息数', permission: 'owner' });

@command('status', status)
class Status extends BaseCommand {
  execute(_input: CommandInput<typeof status>, context: CommandContext): string {
    const operator = operatorOf(context);
    const today = operator.messagesToday();
    const now = context.ctx.chat?.clock.now() ?? Date.now();
    return [
      `已运行 ${duration(Math.max(0, now - operator.startedAt))}`,
      ...modelLines(operator),
      `今天收到 ${today.inbound} 条、发出 ${today.outbound} 条消息`,
      // Accounts are not reachable through the public API yet; the web console lists them.
    ].join('\n');
  }
}

const plugins = defineCommand({ description: '列出插件和它们的状态', permission: 'owner' });

@command('plugins', plugins)
class Plugins extends BaseCommand {
  execute(_input: CommandInput<typeof plugins>, context: CommandContext): string {
    const list = operatorOf(context).plugins();
    return ['插件：', ...list.map((plugin) => `${plugin.id}：${plugin.state}`)].join('\n');
  }
}

const plugin = defineCommand({
  description: '启用、停用或重载一个插件',
  permission: 'owner',
  args: { action: z.enum(['enable', 'disable', 'reload']).describe('enable、disable 或 reload'), id: z.string().describe('插件 id（/plugins 列出）') },
});

@command('plugin', plugin)
class PluginControl extends BaseCommand {
  async execute(input: CommandInput<typeof plugin>, context: CommandContext): Promise<string> {
    const operator = operatorOf(context);
    const { action, id } = input.args;
    if (!operator.plugins().some((known) => known.id === id)) return `没有插件 ${id}，发送 ${context.prefix}plugins 查看`;
    const after = action === 'reload' ? await operator.reloadPlugin(id) : await operator.setPluginEnabled(id, action === 'enable');
    return `${id}：${after.state}`;
  }
}

const model = defineCommand({ description: '每个任务用哪些模型', permission: 'owner' });

@command('model', model)
class Model extends BaseCommand {
  execute(_input: CommandInput<typeof model>, context: CommandContext): string {
    return modelLines(operatorOf(context)).join('\n');
  }
}

/** The owner's chat commands; every one is `permission: 'owner'`. */
export class OwnerCommands extends ToolPlugin {
  override components() {
    return [Status, Plugins, PluginControl, Model];
  }
}
