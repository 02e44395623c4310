import type * as z from 'zod';
import { ToolPlugin, type ChatRuntime, type ComponentClass } from 'moonglass';
import { PassAndWaitAction } from './actions/pass-and-wait.js';
import { SendMediaAction } from './actions/send-media.js';
import { SendTextAction } from './actions/send-text.js';
import { StopConversationAction } from './actions/stop-conversation.js';
import { ChatCoreService } from './chat-core-service.js';
import { NeoChatterConfig } from './config.js';
import { DEFAULT_HANDLERS } from './defaults/default-handlers.js';
import { NdfcState } from './ndfc-state.js';
import { NeoChatter } from './neo-chatter.js';
import { ProbabilityBypassHandler } from './preprocess/probability-bypass.js';
import { SubAgentDecisionHandler } from './preprocess/sub-agent-decision.js';
import { SYSTEM_TEMPLATE, SYSTEM_TEMPLATE_NAME, USER_TEMPLATE, USER_TEMPLATE_NAME } from './session/prompt-templates.js';

/** Neo-Default-Chatter: the default conversation, every step an event. */
export class NeoDefaultChatterPlugin extends ToolPlugin<z.output<typeof NeoChatterConfig>> {
  static override configModel = NeoChatterConfig;
  readonly state = new NdfcState();
  readonly #disposers: (() => void)[] = [];

  override components(): ComponentClass[] {
    return [
      ChatCoreService,
      NeoChatter,
      SendTextAction,
      SendMediaAction,
      PassAndWaitAction,
      StopConversationAction,
      ProbabilityBypassHandler,
      SubAgentDecisionHandler,
      ...DEFAULT_HANDLERS,
    ];
  }

  override async onLoad(): Promise<void> {
    const runtime = this.ctx.chat;
    if (runtime === undefined) throw new Error('neo_default_chatter needs a host with the chat runtime');
    this.#registerPrompts(runtime);
  }

  /** Registers NDFC's prompt templates with the host's prompt manager. */
  #registerPrompts(runtime: ChatRuntime): void {
    if (!runtime.prompts.has(SYSTEM_TEMPLATE_NAME)) this.#disposers.push(runtime.prompts.register(SYSTEM_TEMPLATE_NAME, SYSTEM_TEMPLATE));
    if (!runtime.prompts.has(USER_TEMPLATE_NAME)) this.#disposers.push(runtime.prompts.register(USER_TEMPLATE_NAME, USER_TEMPLATE));
  }

  override async onUnload(): Promise<void> {
    while (this.#disposers.length > 0) this.#disposers.pop()!();
  }
}
