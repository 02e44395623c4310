import { getService, service, ToolPlugin, type ChatterResult, type ComponentClass } from 'moonglass';
import type { NeoChatterService } from 'moonglass/ndfc';

/** `example.session-reuse:service:run_chat`: drives one NDFC session until it waits, succeeds or stops. */
@service('run_chat')
export class RunChat {
  async run(streamId: string): Promise<ChatterResult['kind'] | 'ended'> {
    const chatCore = getService<NeoChatterService>('neo_default_chatter:service:chat_core');
    if (chatCore === undefined) throw new Error('neo_default_chatter service is not available');
    // `plugin: chatCore.plugin` is NDFC itself, as in the seed; pass your own plugin to run with its config.
    const runner = chatCore.createSession({ streamId, plugin: chatCore.plugin }).execute();
    const step = await runner.next();
    await runner.return(undefined); // this example stops at the first result instead of waiting for resumes
    if (step.done === true) return 'ended';
    if (step.value.kind === 'failure') throw new Error(step.value.message);
    return step.value.kind;
  }
}

export class SessionReusePlugin extends ToolPlugin {
  override components(): ComponentClass[] {
    return [RunChat];
  }
}
