import * as z from 'zod';
import { getService, ToolExecutionResult, ToolPlugin, tool, WaitResumeEvent, type ToolContext, type ToolInvocation } from 'moonglass';
import type { NeoChatterService } from 'moonglass/ndfc';

/** How long the stand-in sub-agent works, in ms of the host's clock. */
export const RESEARCH_MS = 5_000;

/**
 * `start_research`: hands a question to a sub-agent and returns at once; when the sub-agent
 * is done, the conversation it came from goes on with the result (NDFC builds the prompt in
 * `:build_resume_prompt`, source `sub_agent`), whether it is waiting by then or has ended.
 */
export class SubAgentResumePlugin extends ToolPlugin {
  @tool({
    name: 'start_research',
    description: '需要花时间查资料时调用：后台开始查，查完会把结果告诉你。',
    parameters: z.object({ topic: z.string().min(1).max(100).describe('要查的内容') }),
  })
  async startResearch(invocation: ToolInvocation, context: ToolContext): Promise<ToolExecutionResult> {
    const topic = String(invocation.arguments['topic']);
    // The sub-agent's work: a timer on the host's clock stands in for a slower model call.
    this.ctx.setTimeout(() => {
      const chatCore = getService<NeoChatterService>('neo_default_chatter:service:chat_core');
      const result = `关于「${topic}」查到了三条资料`;
      if (chatCore === undefined) this.ctx.logger.warn({ topic }, 'neo_default_chatter is not loaded: the research result has nowhere to go');
      else chatCore.resume(context.streamId, new WaitResumeEvent('sub_agent', { extra: { topic, result } }));
    }, RESEARCH_MS);
    return ToolExecutionResult.ok(invocation.toolName, `已开始查「${topic}」，查完会告诉你`);
  }
}
