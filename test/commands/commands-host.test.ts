import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../../src/testing/create-test-host.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { projectRoot } from '../support/temp-dir.js';
import { until } from '../support/until.js';

const DICE = join(projectRoot, 'test/commands/fixtures/dice-commands');
const RIVAL = join(projectRoot, 'test/commands/fixtures/rival-commands');
const OWNER = '20001';

describe('commands in a test host', () => {
  let test: TestHost | undefined;
  afterEach(async () => {
    await test?.stop();
    test = undefined;
  });

  async function start(): Promise<TestHost> {
    test = await createTestHost({ plugins: [DICE], botConfig: { permissions: { owners: { test: [OWNER] }, blocklist: { test: ['30003'] } } } });
    return test;
  }

  it('runs a plugin command, replies through the outbox, and keeps the message from the chatter', async () => {
    const host = await start();
    const outcome = await host.adapter.send('/roll 2 20 --label 火球 -v');
    await host.settle(15_000);
    expect(outcome.status).toBe('stopped');
    expect(host.adapter.texts()).toEqual(['火球：2d20（详细）']);
    expect(host.model.calls).toHaveLength(0);
    // Also by alias, and with the default for sides
    await host.adapter.send('/掷骰 3');
    await host.settle(15_000);
    expect(host.adapter.texts().at(-1)).toBe('骰子：3d6');
  });

  it('[issue 19] warns once when a command word another plugin registered first hides a command, naming both', async () => {
    test = await createTestHost({ plugins: [DICE, RIVAL] });
    await test.adapter.send('/roll 2');
    await test.adapter.send('/roll 3');
    await test.settle(15_000);
    expect(test.adapter.texts()).toEqual(['骰子：2d6', '骰子：3d6']);
    const warnings = test.logs.filter((record) => typeof record['msg'] === 'string' && record['msg'].startsWith('the command word "roll"'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', runs: 'test.dice-commands:command:roll', shadowed: 'test.rival-commands:command:roll' });
    expect(warnings[0]!['msg']).toContain('rename it or give it another alias');
  });

  it('lets a passThrough command reach the chatter too', async () => {
    const host = await start();
    await host.adapter.send('/echo hello  world');
    await host.settle(15_000);
    expect(host.adapter.texts()[0]).toBe('复读：hello  world');
    expect(host.model.calls.length).toBeGreaterThan(0);
  });

  it('answers a bad argument with the reason and the usage line, and an unknown command with a hint', async () => {
    const host = await start();
    await host.adapter.send('/roll zero');
    await host.settle(1_000);
    expect(host.adapter.texts()[0]).toMatch(/^参数 count 不对：.*\n用法：\/roll <count> \[sides\] \[--label <label>\] \[-v\|--verbose\]$/s);
    await host.adapter.send('/nosuch');
    await host.settle(1_000);
    expect(host.adapter.texts()[1]).toBe('未知命令 /nosuch，发送 /help 查看可用命令');
    expect(host.model.calls).toHaveLength(0);
  });

  it('refuses a member an owner command and runs it for the owner; /help differs by level', async () => {
    const host = await start();
    await host.adapter.send('/secret');
    await host.settle(1_000);
    expect(host.adapter.texts()[0]).toBe('没有权限：/secret 仅限主人使用（你是成员）');
    await host.adapter.send('/secret', { user: OWNER });
    await host.settle(1_000);
    expect(host.adapter.texts()[1]).toBe('秘密：uptime known');

    await host.adapter.send('/help');
    await host.adapter.send('/help', { user: OWNER });
    await host.settle(1_000);
    const [memberHelp, ownerHelp] = host.adapter.texts().slice(2);
    expect(memberHelp).toContain('/roll — 掷骰子');
    expect(memberHelp).not.toContain('/secret');
    expect(ownerHelp).toContain('/secret — 主人专用');
    await host.adapter.send('/help roll');
    await host.settle(1_000);
    expect(host.adapter.texts()[4]).toContain('用法：/roll <count> [sides]');
    expect(host.model.calls).toHaveLength(0);
  });

  it('runs a command after an @ of the bot in a group, and leaves an unaddressed unknown /word to the chatter', async () => {
    const host = await start();
    await host.adapter.send('@Bot /roll 1', { group: '500', mentionsBot: true });
    await host.settle(1_000);
    expect(host.adapter.texts()[0]).toBe('骰子：1d6');
    const outcome = await host.adapter.send('/shrug 我也不知道', { group: '500' });
    expect(outcome.status).toBe('delivered');
  });

  it('does not run a command a before_command handler STOPs, and logs the veto', async () => {
    const host = await start();
    const seen: string[] = [];
    host.host.bus.subscribe('before_command', (_event, params) => {
      seen.push(String(params['name']));
      return [EventDecision.STOP, params];
    });
    host.host.bus.subscribe('after_command', (_event, params) => {
      seen.push(`after ${String(params['name'])}`);
      return [EventDecision.PASS, params];
    });
    await host.adapter.send('/roll 2');
    await host.settle(1_000);
    expect(host.adapter.texts()).toEqual([]);
    expect(seen).toEqual(['roll']);
    expect(host.logs.some((record) => String(record['msg']).includes('vetoed test.dice-commands:command:roll'))).toBe(true);
  });

  it('publishes after_command with the result', async () => {
    const host = await start();
    const results: unknown[] = [];
    host.host.bus.subscribe('after_command', (_event, params) => {
      results.push(params['result']);
      return [EventDecision.PASS, params];
    });
    await host.adapter.send('/roll 2');
    await host.settle(1_000);
    expect(results).toEqual([{ status: 'ok', reply: '骰子：2d6' }]);
  });

  it('stores a guest’s messages and commands and never answers them', async () => {
    const host = await start();
    const chat = await host.adapter.send('你好', { user: '30003' });
    const commandOutcome = await host.adapter.send('/help', { user: '30003' });
    await host.settle(15_000);
    expect(chat).toMatchObject({ status: 'stopped', reason: 'the sender is on the blocklist' });
    expect(commandOutcome).toMatchObject({ status: 'stopped', reason: 'the sender is on the blocklist' });
    expect(host.adapter.texts()).toEqual([]);
    expect(host.model.calls).toHaveLength(0);
    const streamId = chat.status === 'stopped' ? chat.message!.streamId : '';
    expect(host.host.chat.storage.messages.countSince(0).inbound).toBe(2);
    expect(streamId).not.toBe('');
  });
});

describe('the built-in owner commands', () => {
  it('answer the owner with status, plugins and models, reload a plugin, and refuse a member', async () => {
    const test = await createTestHost({ botConfig: { permissions: { owners: { test: [OWNER] } } } });
    try {
      await test.adapter.send('/status');
      await test.settle(1_000);
      expect(test.adapter.texts()[0]).toBe('没有权限：/status 仅限主人使用（你是成员）');
      await test.adapter.send('/status', { user: OWNER });
      await test.settle(1_000);
      expect(test.adapter.texts()[1]).toMatch(/^已运行 0 小时 0 分钟\n[\s\S]*今天收到 2 条、发出 1 条消息$/);
      await test.adapter.send('/plugins', { user: OWNER });
      await test.settle(1_000);
      expect(test.adapter.texts()[2]).toContain('owner-commands：loaded');
      await test.adapter.send('/plugin reload forward-message', { user: OWNER });
      const settling = setInterval(() => void test.clock.advance(100), 20);
      try {
        await until(() => test.adapter.texts().length >= 4, { what: 'the reload reply' });
      } finally {
        clearInterval(settling);
      }
      expect(test.adapter.texts()[3]).toBe('forward-message：loaded');
      await test.adapter.send('/plugin explode x', { user: OWNER });
      await test.settle(1_000);
      expect(test.adapter.texts()[4]).toContain('用法：/plugin <action> <id>');
      await test.adapter.send('/model', { user: OWNER });
      await test.settle(1_000);
      expect(test.adapter.texts()[5]).toBeTruthy();
      expect(test.model.calls).toHaveLength(0);
    } finally {
      await test.stop();
    }
  });
});
