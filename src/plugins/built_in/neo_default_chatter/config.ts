import * as z from 'zod';
import { PluginConfig } from 'moonglass';

const probability = (value: number, description: string) => z.number().min(0).max(1).default(value).describe(description);

/**
 * NDFC's `[plugin]` table in its `config.toml`. The fields and defaults follow Neo-MoFox's
 * `NeoChatterConfig`, except `enabled`, which defaults to true: NDFC is the default chatter.
 * The `:preprocess` gate values (Neo-MoFox's `preprocess_*` sub-sections) are flat fields here.
 */
export const NeoChatterConfig = PluginConfig.extend({
  enabled: z.boolean().default(true).describe('是否启用默认聊天器 NDFC；它是框架的默认聊天器，关闭后需要另配聊天器'),
  native_multimodal: z.boolean().default(false).describe('是否把图片作为多模态内容直接交给模型（模型需支持图片输入）'),
  image_placeholder_template: z
    .string()
    .default('[图片-{idx}]')
    .describe('不走多模态时图片在文本中的占位符，{idx} 为图片序号'),
  enable_stop_direct_message_wake: z
    .boolean()
    .default(false)
    .describe('结束对话（冷却中）后，私聊消息是否可以按概率提前唤醒'),
  stop_direct_message_wake_probability: probability(0.5, '私聊提前唤醒的概率，0 到 1'),
  reinforce_negative_behaviors: z.boolean().default(true).describe('是否在提示词中强化负面行为约束（不该做的事）'),
  default_stop_minutes: z.number().min(0).default(5).describe('stop_conversation 未给出分钟数时的默认冷却分钟数'),
  typing_delay_per_char: z.number().min(0).default(0.5).describe('发送文字前每个字符的模拟打字延迟（秒）'),
  typing_delay_max_seconds: z.number().min(0).default(10).describe('模拟打字延迟的上限（秒）'),
  enable_cooldown: z.boolean().default(true).describe('结束对话后是否进入冷却（冷却期内不开启新对话）'),
  enable_action_suspend: z
    .boolean()
    .default(true)
    .describe('只调用了动作（没有工具结果）的回合结束后是否挂起等待新消息；关闭则继续追问模型'),
  max_follow_up_rounds: z
    .number()
    .int()
    .min(0)
    .default(8)
    .describe('一轮对话中，工具结果之后连续追问模型的最多次数；超过后本轮结束、等待新消息（防止模型反复调用工具）'),
  actor_task_name: z.string().min(1).default('actor').describe('主对话使用的模型任务名（models.toml 中的任务）'),
  introduce: z.string().default('').describe('追加到系统提示词中的自我介绍（可选，留空则只用 bot.toml 的人设）'),
  probability_base: probability(0.1, '群聊概率门：基础回应概率'),
  probability_mention: probability(0.7, '群聊概率门：被 @ 或被回复时增加的概率'),
  probability_name: probability(0.4, '群聊概率门：消息提到昵称或别名时增加的概率'),
  probability_per_unread: probability(0.05, '群聊概率门：每条未读消息增加的概率'),
  enable_sub_agent_decision: z
    .boolean()
    .default(false)
    .describe('概率门未放行时，是否用一次轻量模型调用判断要不要回应'),
  sub_agent_task_name: z.string().min(1).default('actor').describe('回应判定使用的模型任务名'),
});

/** The validated values of `NeoChatterConfig`. */
export type NeoChatterConfigValues = z.output<typeof NeoChatterConfig>;
