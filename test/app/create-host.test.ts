import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/app/create-host.js';
import { service } from '../../src/kernel/components/decorators.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { HostNotRunningError } from '../../src/kernel/errors/host-not-running-error.js';
import { HostStateError } from '../../src/kernel/errors/host-state-error.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { getService, publishEvent, setEventHandlerTimeout } from '../../src/kernel/runtime/module-api.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { SeededRandom } from '../../src/kernel/time/random.js';
import { TOKENS } from '../../src/kernel/tokens.js';
import { useTempDir } from '../support/temp-dir.js';

@service('greeter')
class Greeter {
  greet(): string {
    return 'hello';
  }
}

describe('Host', () => {
  const tempDir = useTempDir();
  const started: Host[] = [];
  afterEach(async () => {
    while (started.length > 0) await started.pop()!.stop();
  });

  async function startHost(options: Parameters<typeof createHost>[0] = {}): Promise<Host> {
    const host = createHost({ logger: createMemoryLogger().logger, configDir: join(tempDir(), 'config'), dataDir: join(tempDir(), 'data'), pluginRoots: [], ...options });
    await host.start();
    started.push(host);
    return host;
  }

  it('[N-39] applies advanced.event_handler_timeout from features.toml at start', async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'features.toml'), '[advanced]\nevent_handler_timeout = 2\n');
    const clock = new ManualClock();
    const host = await startHost({ configDir, clock });
    expect(host.bus.defaultTimeoutSeconds).toBe(2);
    host.bus.subscribe('slow', async (_name, params) => {
      await clock.sleep(3_000);
      return [EventDecision.STOP, params];
    });
    const pending = host.publishEvent('slow', { v: 1 });
    await clock.advance(2_010);
    expect((await pending).decision).toBe(EventDecision.PASS);
  });

  it('[N-39] setEventHandlerTimeout changes the running host’s default', async () => {
    const host = await startHost();
    setEventHandlerTimeout(7);
    expect(host.bus.defaultTimeoutSeconds).toBe(7);
    expect(() => setEventHandlerTimeout(Number.NaN)).toThrow(/seconds must be a number/);
  });

  it('binds the core tokens: bus, clock, random, config, registry and host facts', async () => {
    const clock = new ManualClock();
    const random = new SeededRandom(7);
    const host = await startHost({ clock, random });
    expect(host.container.get(TOKENS.EventBus)).toBe(host.bus);
    expect(host.container.get(TOKENS.Clock)).toBe(clock);
    expect(host.container.get(TOKENS.Random)).toBe(random);
    // The host's own clock and random source read through the tokens.
    expect(host.clock.now()).toBe(clock.now());
    expect(host.random.next()).toBe(new SeededRandom(7).next());
    expect(host.container.get(TOKENS.Config)).toMatchObject({ advanced: { event_handler_timeout: 30, force_compatibility: false } });
    expect(host.container.get(TOKENS.Registry)).toBe(host.registry);
    expect(host.container.get(TOKENS.HostInfo)).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
  });

  it('serves getService and publishEvent to code that does not hold the host', async () => {
    const host = await startHost();
    host.registry.register(host.createScope('greetings'), Greeter);
    const first = getService<Greeter>('greetings:service:greeter');
    const second = getService<Greeter>('greetings:service:greeter');
    expect(first?.greet()).toBe('hello');
    expect(first).not.toBe(second);
    expect(getService('greetings:service:missing')).toBeUndefined();
    host.bus.subscribe('ping', (_name, params: { n: number }) => [EventDecision.SUCCESS, { n: params.n + 1 }]);
    expect(await publishEvent('ping', { n: 1 })).toEqual({ decision: EventDecision.SUCCESS, params: { n: 2 } });
  });

  it('throws HostNotRunningError from the module-level API when no host runs', () => {
    expect(() => getService('a:service:b')).toThrow(HostNotRunningError);
    expect(() => publishEvent('x', {})).toThrow(/publishEvent\(\) needs a running host/);
  });

  it('refuses to guess between two running hosts, while each host’s own methods work', async () => {
    const one = await startHost();
    const two = await startHost();
    one.registry.register(one.createScope('only_one'), Greeter);
    expect(() => getService('only_one:service:greeter')).toThrow(HostNotRunningError);
    expect(() => getService('only_one:service:greeter')).toThrow(/cannot tell which of the 2 running hosts/);
    expect(one.getService('only_one:service:greeter')).toBeInstanceOf(Greeter);
    expect(two.getService('only_one:service:greeter')).toBeUndefined();
    await two.stop();
    expect(getService('only_one:service:greeter')).toBeInstanceOf(Greeter);
  });

  it('publishes on_start and on_stop, and disposes plugin scopes newest first on stop', async () => {
    const host = createHost({ logger: createMemoryLogger().logger, appConfig: {}, pluginRoots: [], database: 'memory' });
    const seen: string[] = [];
    host.bus.subscribe('on_start', (name, params) => (seen.push(name), [EventDecision.PASS, params]));
    host.bus.subscribe('on_stop', (name, params) => (seen.push(`${name}:${String(params.reason)}`), [EventDecision.PASS, params]));
    await host.start();
    const first = host.createScope('first');
    const second = host.createScope('second');
    first.effect('a', () => seen.push('dispose first'));
    second.effect('b', () => seen.push('dispose second'));
    await host.stop('SIGTERM');
    await host.stop();
    expect(seen).toEqual(['on_start', 'on_stop:SIGTERM', 'dispose second', 'dispose first']);
    expect(host.state).toBe('stopped');
    expect(() => getService('a:service:b')).toThrow(HostNotRunningError);
  });

  it('refuses a second start and config reads before start, with HostStateError', async () => {
    const host = createHost({ logger: createMemoryLogger().logger, appConfig: {}, pluginRoots: [], database: 'memory' });
    expect(() => host.config).toThrow(HostStateError);
    await host.start();
    started.push(host);
    await expect(host.start()).rejects.toThrow(/start\(\) is not possible while the host is running/);
  });

  it('stops with the file and field named when features.toml is invalid', async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'features.toml'), '[advanced]\nforce_compatibility = "yes"\n');
    const host = createHost({ logger: createMemoryLogger().logger, configDir, pluginRoots: [], database: 'memory' });
    await expect(host.start()).rejects.toThrow(/features\.toml:\n {2}- advanced\.force_compatibility: .*expected boolean/);
    expect(host.state).toBe('stopped');
  });
});
