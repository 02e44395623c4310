import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { EventDecision, type ChatterGenerator, type ChatterResult, type LLMRequest } from 'moonglass';
import { NdfcEvent, type ConversationSession, type CreateSessionOptions, type NeoChatterConfig, type NeoChatterService } from 'moonglass/ndfc';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';
import type { TestHost } from '../../../src/testing/create-test-host.js';
import { NdfcPublisher } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-publisher.js';

const OWN_SESSION = join(import.meta.dirname, 'fixtures/own-session');

/** Keeps the host's own conversation of every stream out of the way, so only the test's session reads the messages. */
function skipHostSteps(test: TestHost): void {
  test.host.bus.subscribe('on_chatter_step', (_name, params) => [EventDecision.SUCCESS, { ...params, continue: false }]);
}

async function streamOf(test: TestHost, text: string): Promise<string> {
  const outcome = await test.adapter.send(text);
  if (outcome.status !== 'delivered') throw new Error(`the message was not delivered: ${outcome.status}`);
  return outcome.message.streamId;
}

/** Runs `first` while the manual clock moves, and returns what it resolved to. */
async function whileSettling<T>(test: TestHost, first: Promise<T>, ms = 5_000): Promise<T> {
  await test.settle(ms);
  return first;
}

describe('moonglass/ndfc for a third party (issue 15, item 6)', () => {
  const start = useTestHosts();

  it('[N-04] [issue 15] createSession({ plugin }) with a third party’s plugin takes NDFC’s values for the fields that plugin’s config does not define', async () => {
    const test = await start({
      plugins: [OWN_SESSION],
      script: [toolReply([{ name: 'stop_conversation', args: {} }])],
      // NDFC's own values, not its model's defaults, fill in: cooldown off here.
      pluginConfigs: { neo_default_chatter: '[plugin]\nenable_cooldown = false\n' },
    });
    skipHostSteps(test);
    const configs: NeoChatterConfig[] = [];
    test.host.bus.subscribe(NdfcEvent.COMPUTE_COOLDOWN, (_name, params) => (configs.push(params.config), [EventDecision.PASS, params]));
    const streamId = await streamOf(test, '再见');
    const runner = test.host.getService<{ firstResult(streamId: string): Promise<ChatterResult> }>('fixture.own-session:service:runner')!;

    const result = await whileSettling(test, runner.firstResult(streamId));

    // Before, the session read the plugin's config alone: no actor_task_name, so no request, so Failure.
    expect(result).toMatchObject({ kind: 'stop', time: 0 });
    expect(test.model.calls).toHaveLength(1);
    const config = configs[0]!;
    expect(config.default_stop_minutes).toBe(2); // the plugin's own
    expect(config.sub_agent_task_name).toBe('own_judge'); // the plugin's own
    expect(config.enable_cooldown).toBe(false); // NDFC's value
    expect(config.actor_task_name).toBe('actor'); // NDFC's value
    // A field of the plugin's that NeoChatterConfig does not have never reaches a payload.
    expect(JSON.stringify(config)).not.toContain('秘密问候语');
  });

  it('[N-35] [issue 15] the sub-agent decision of a third party’s session reads that session’s config', async () => {
    const test = await start({
      plugins: [OWN_SESSION],
      script: [textReply('{"respond": false, "reason": "闲聊"}')],
      // The gate never lets a group message through here, so the sub-agent decides.
      pluginConfigs: { neo_default_chatter: '[plugin]\nenable_sub_agent_decision = true\nprobability_base = 0\nprobability_per_unread = 0\n' },
    });
    skipHostSteps(test);
    const tasks: string[] = [];
    test.host.bus.subscribe('before_llm_request', (_name, params) => (tasks.push(`${params.request_name} ${params.task_name}`), [EventDecision.PASS, params]));
    const outcome = await test.adapter.send('大家好', { group: 'g1' });
    const streamId = (outcome as { message: { streamId: string } }).message.streamId;
    const runner = test.host.getService<{ firstResult(streamId: string): Promise<ChatterResult> }>('fixture.own-session:service:runner')!;

    expect(await whileSettling(test, runner.firstResult(streamId))).toMatchObject({ kind: 'wait' });
    // The plugin's sub_agent_task_name, not NDFC's 'actor'.
    expect(tasks).toEqual(['sub_agent_decision own_judge']);
  });

  it('[N-31] [N-33] [issue 15] handlers written from the seed’s examples read config.plugin.enable_cooldown and cfg.actor_task_name', async () => {
    const test = await start({ script: [toolReply([{ name: 'stop_conversation', args: { minutes: 2 } }])] });
    const taskNames: string[] = [];
    test.host.bus.subscribe(NdfcEvent.PREPROCESS, (_name, params) => {
      const cfg = params.config.plugin; // the seed's cfg: the [plugin] section
      taskNames.push(cfg.actor_task_name);
      return [EventDecision.PASS, params];
    }, { weight: 200 });
    // The seed's compute_cooldown, as a replacement: config.plugin.enable_cooldown 时返回 int(minutes * 60)（plus one, to tell it apart）.
    test.host.bus.subscribe(NdfcEvent.COMPUTE_COOLDOWN, (_name, params) => [
      EventDecision.STOP,
      { ...params, cooldown_seconds: params.config.plugin.enable_cooldown ? Math.trunc(params.minutes * 60) + 1 : 0 },
    ], { weight: 200 });
    const stops: number[] = [];
    test.host.bus.subscribe('after_chatter_step', (_name, params) => (params.result.kind === 'stop' && stops.push(params.result.time), [EventDecision.PASS, params]));

    await test.adapter.send('拜拜');
    await test.settle(5_000);

    expect(taskNames).toEqual(['actor']);
    expect(stops).toEqual([121]);
  });

  it('[N-04] [issue 15] the seed’s createSession({ stream_id, plugin: service.plugin }) uses NDFC’s own config; service.plugin carries no config', async () => {
    const test = await start({
      script: [toolReply([{ name: 'stop_conversation', args: {} }])],
      pluginConfigs: { neo_default_chatter: '[plugin]\ndefault_stop_minutes = 7\n' },
    });
    skipHostSteps(test);
    const streamId = await streamOf(test, '再见');
    const service: NeoChatterService = test.host.getService('neo_default_chatter:service:chat_core')!;
    expect(service.plugin).toEqual({ id: 'neo_default_chatter' });
    const options: CreateSessionOptions = { streamId, plugin: service.plugin };
    const session: ConversationSession = service.createSession(options);

    const first = (async () => {
      for await (const result of session) return result;
      return undefined;
    })();

    expect(await whileSettling(test, first)).toMatchObject({ kind: 'stop', time: 7 * 60 });
  });

  it('[N-22] [issue 15] :inject_unread_payload’s response is always the conversation’s LLMRequest, also when a response is handed in', async () => {
    const test = await start({ script: [textReply('嗯')] });
    const streamId = await streamOf(test, '你好');
    const request = test.host.chat.runtime.createRequest(streamId, 'actor');
    const response = await request.send();
    const received: unknown[] = [];
    test.host.bus.subscribe(NdfcEvent.INJECT_UNREAD_PAYLOAD, (_name, params) => {
      const conversation: LLMRequest = params.response; // one type: no narrowing needed
      received.push(conversation);
      return [EventDecision.PASS, params];
    });

    await NdfcPublisher.injectUnreadPayload(streamId, request, '一', null, false);
    await NdfcPublisher.injectUnreadPayload(streamId, response, '二', null, false);

    expect(received).toEqual([request, request]);
    expect(received[1]).toBe(request);
    expect(request.payloads.filter((payload) => payload.role === 'user').map((payload) => payload.content)).toEqual(['一', '二']);
  });

  it('[issue 15] moonglass/ndfc names the service, session, options and config types; getService of chat_core is typed by them', () => {
    expectTypeOf<ReturnType<NeoChatterService['createSession']>>().toEqualTypeOf<ConversationSession>();
    expectTypeOf<ConversationSession['execute']>().returns.toEqualTypeOf<ChatterGenerator>();
    expectTypeOf<ConversationSession>().toExtend<AsyncIterable<ChatterResult>>();
    expectTypeOf<CreateSessionOptions['streamId']>().toEqualTypeOf<string>();
    expectTypeOf<NeoChatterConfig['plugin']['enable_cooldown']>().toEqualTypeOf<boolean>();
    expectTypeOf<NeoChatterConfig['actor_task_name']>().toEqualTypeOf<string>();
    const typed = (host: TestHost['host']) => host.getService('neo_default_chatter:service:chat_core');
    expectTypeOf(typed).returns.toEqualTypeOf<NeoChatterService | undefined>();
    expect(Object.keys(NdfcEvent)).toHaveLength(17);
  });
});
