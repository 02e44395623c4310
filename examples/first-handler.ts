// A first extension: a service and an event handler, registered on a host and used by
// code that never imports them. Run it: node --conditions=source --import tsx examples/first-handler.ts
import 'reflect-metadata';
import { BaseEventHandler, EventDecision, createHost, eventHandler, getService, inject, publishEvent, service, TOKENS, type Logger } from 'moonglass';

@service('greeter')
class Greeter {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {}
  greet(name: string): string {
    this.logger.info({ name }, 'greeting');
    return `你好，${name}`;
  }
}

@eventHandler({ name: 'polite', subscribe: ['greeting_requested'], weight: 100 })
class Polite extends BaseEventHandler {
  execute(_event: string, params: Record<string, unknown>) {
    return [EventDecision.SUCCESS, { ...params, text: `${String(params['text'])}！` }] as const;
  }
}

export async function main(): Promise<string> {
  const host = createHost({ appConfig: {}, pluginRoots: [], database: 'memory', logLevel: 'warn' });
  await host.start();
  const scope = host.createScope('hello');
  host.registry.register(scope, Greeter);
  host.registry.register(scope, Polite);

  const greeter = getService<Greeter>('hello:service:greeter')!; // a new instance per call
  const { params } = await publishEvent('greeting_requested', { text: greeter.greet('月璃') });
  await host.stop();
  return String(params['text']);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await main());
