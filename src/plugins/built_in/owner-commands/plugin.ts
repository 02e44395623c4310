import { z } from 'zod';
import { BaseCommand, command, defineCommand, ToolPlugin, type ChatSilence, type CommandContext, type CommandInput, type CommandOperator } from 'moonglass';
import { MuteDurationSchema } from './mute-duration.js';

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

function accountLines(operator: CommandOperator): string[] {
  const accounts = operator.accounts();
  if (accounts === undefined) return ['账号：没有运行适配器'];
  if (accounts.length === 0) return ['账号：适配器还没有报告账号'];
  return accounts.map((account) => `账号 ${account.selfId}（${account.nickname}）：${account.connected ? '已连接' : '未连接'}`);
}

/** `epochMs` on the wall clock of `timeZone`: `2026-12-02 01:30`. */
function localTime(epochMs: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(epochMs))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}（${timeZone}）`;
}

function silenceLines(silence: ChatSilence | undefined, timeZone: string): string[] {
  if (silence === undefined) return [];
  if (silence.kind === 'muted') return [`这里禁言到 ${localTime(silence.until, timeZone)}`];
  return [`这里正处在规则 ${silence.rule} 的安静时段`];
}

function chatName(context: CommandContext): string {
  return context.message.chatType === 'group' ? '本群' : '这个私聊';
}

const status = defineCommand({ description: '运行状态：运行时长、模型、账号、今天的消息数', permission: 'owner' });

@command('status', status)
class Status extends BaseCommand {
  execute(_input: CommandInput<typeof status>, context: CommandContext): string {
    const operator = operatorOf(context);
    const today = operator.messagesToday();
    const now = context.ctx.chat?.clock.now() ?? Date.now();
    return [
      `已运行 ${duration(Math.max(0, now - operator.startedAt))}`,
      ...modelLines(operator),
      ...accountLines(operator),
      ...silenceLines(operator.silenceOf(context.streamId), operator.timeZone),
      `今天收到 ${today.inbound} 条、发出 ${today.outbound} 条消息`,
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

const mute = defineCommand({
  description: '在这个聊天里禁言一段时间：消息只记录不回复（主人的命令照常可用）',
  permission: 'owner',
  args: { duration: MuteDurationSchema },
});

@command('mute', mute)
class Mute extends BaseCommand {
  execute(input: CommandInput<typeof mute>, context: CommandContext): string {
    const operator = operatorOf(context);
    const now = context.ctx.chat?.clock.now() ?? Date.now();
    const until = now + input.args.duration;
    operator.mute(context.streamId, until, context.message.senderId);
    return `${chatName(context)}禁言到 ${localTime(until, operator.timeZone)}：期间消息只记录不回复，主人的命令照常可用；发送 ${context.prefix}unmute 解除`;
  }
}

const unmute = defineCommand({ description: '解除这个聊天的禁言', permission: 'owner' });

@command('unmute', unmute)
class Unmute extends BaseCommand {
  execute(_input: CommandInput<typeof unmute>, context: CommandContext): string {
    const operator = operatorOf(context);
    if (!operator.unmute(context.streamId)) return `${chatName(context)}没有被禁言`;
    const still = operator.silenceOf(context.streamId);
    const quiet = still?.kind === 'quiet_hours' ? `；不过现在是规则 ${still.rule} 的安静时段，消息仍然只记录不回复` : '';
    return `${chatName(context)}已解除禁言${quiet}`;
  }
}

/** The owner's chat commands; every one is `permission: 'owner'`. */
export class OwnerCommands extends ToolPlugin {
  override components() {
    return [Status, Plugins, PluginControl, Model, Mute, Unmute];
  }
}
