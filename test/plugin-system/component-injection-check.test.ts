import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestManager } from '../support/plugin-manager.js';
import { useProjectTempDir } from '../support/temp-dir.js';
import { type PluginFolderSpec, recorded, recorderSource, writePluginFolder } from './support/plugin-folders.js';

// Issue 14, item 8 (and the @inject half of item 5): a component whose constructor
// dependencies cannot be resolved fails its plugin at load, naming the missing signature,
// not at the first getService; the check reads metadata and builds nothing.

const KEY = '__injectionCheckTimeline';

const radarSource = `import { ToolPlugin, service } from 'moonglass';
@service('radar')
export class Radar { scan(): string { return 'clear'; } }
export class RadarPlugin extends ToolPlugin { override components() { return [Radar]; } }
`;

/** A plugin `weather` whose service `forecast` injects `injected` (optionally @optional()). */
function weatherSource(injected: string, decorators = ''): string {
  return `import { BaseEventHandler, EventDecision, ToolPlugin, eventHandler, inject, optional, service } from 'moonglass';
${recorderSource(KEY)}
@service('forecast')
export class Forecast {
  constructor(@inject(${JSON.stringify(injected)}) ${decorators} readonly radar: { scan(): string } | undefined) { record('built forecast'); }
}
@eventHandler({ name: 'watch', subscribe: ['weather_asked'] })
export class Watch extends BaseEventHandler {
  constructor() { super(); record('built watch'); }
  execute(_event: string, params: Record<string, unknown>) { return [EventDecision.PASS, params] as const; }
}
void optional;
export class WeatherPlugin extends ToolPlugin {
  override components() { return [Watch, Forecast]; }
  override async onLoad(): Promise<void> { record('onLoad weather'); }
}
`;
}

describe('the load-time injection check', () => {
  const tempDir = useProjectTempDir();

  async function load(specs: readonly PluginFolderSpec[]) {
    const work = tempDir();
    const folders = specs.map((spec) => writePluginFolder(join(work, 'sources'), spec));
    const test = createTestManager(work, { builtInFolders: folders });
    recorded(KEY);
    await test.manager.loadAll();
    return { ...test, statusOf: (id: string) => test.manager.list().find((status) => status.id === id)! };
  }

  it('[issue 14.8] a constructor injection nothing provides fails the plugin at load, naming the component and the signature, before any component is built', async () => {
    const test = await load([{ id: 'weather', source: weatherSource('radar:service:radar') }]);
    expect(test.statusOf('weather')).toMatchObject({
      state: 'failed',
      stage: 'register',
      signatures: [],
      reason:
        'ComponentInjectionError: component weather:service:forecast: constructor argument 1 injects "radar:service:radar", which no loaded plugin provides ' +
        "(declare radar in the manifest's dependencies, or mark the argument @optional())",
    });
    expect(recorded(KEY)).toEqual([]); // neither the service nor the handler was built, and onLoad never ran
    expect(test.registry.list({ pluginId: 'weather' })).toEqual([]);
    expect(test.bus.subscribers('weather_asked')).toEqual([]);
  });

  it('[issue 14.8] a signature of the plugin itself that it does not register is named as such', async () => {
    const test = await load([{ id: 'weather', source: weatherSource('weather:service:radr') }]);
    expect(test.statusOf('weather').reason).toContain(
      'component weather:service:forecast: constructor argument 1 injects "weather:service:radr", which plugin weather does not register (check the name, or mark the argument @optional())',
    );
  });

  it('[issue 14.8] an argument without @inject fails at load naming the class and the signature, with inversify’s reason', async () => {
    const source = `import { ToolPlugin, service } from 'moonglass';
@service('forecast')
export class Forecast { constructor(readonly radar: unknown) {} }
export class WeatherPlugin extends ToolPlugin { override components() { return [Forecast]; } }
`;
    const test = await load([{ id: 'weather', source }]);
    expect(test.statusOf('weather')).toMatchObject({ state: 'failed', stage: 'register' });
    expect(test.statusOf('weather').reason).toContain(
      'ComponentDeclarationError: component class Forecast: constructor cannot be bound as weather:service:forecast: Error: Found unexpected missing metadata on type "Forecast". "Forecast" constructor requires at least 1 arguments',
    );
  });

  it('[issue 14.8] a declared dependency’s service and a sibling declared later are fine, and the handler is built only after the check', async () => {
    const source = `import { BaseEventHandler, EventDecision, ToolPlugin, eventHandler, inject, service } from 'moonglass';
${recorderSource(KEY)}
@eventHandler({ name: 'watch', subscribe: ['weather_asked'] })
export class Watch extends BaseEventHandler {
  constructor(@inject('weather:service:forecast') readonly forecast: { read(): string }) { super(); record('built watch: ' + forecast.read()); }
  execute(_event: string, params: Record<string, unknown>) { return [EventDecision.PASS, params] as const; }
}
@service('forecast')
export class Forecast {
  constructor(@inject('radar:service:radar') readonly radar: { scan(): string }) {}
  read(): string { return this.radar.scan(); }
}
export class WeatherPlugin extends ToolPlugin { override components() { return [Watch, Forecast]; } }
`;
    const test = await load([
      { id: 'weather', source, dependencies: { radar: '^1.0.0' } },
      { id: 'radar', source: radarSource },
    ]);
    expect(test.statusOf('weather')).toMatchObject({ state: 'loaded', signatures: ['weather:event_handler:watch', 'weather:service:forecast'] });
    expect(recorded(KEY)).toEqual(['built watch: clear']);
    expect(test.logs(/does not list in its dependencies/)).toEqual([]);
  });

  it('[issue 14.5] another plugin’s service that the manifest does not declare loads when bound, with a warning naming both plugins', async () => {
    const test = await load([
      { id: 'radar', source: radarSource },
      { id: 'weather', source: weatherSource('radar:service:radar') },
    ]);
    expect(test.statusOf('weather').state).toBe('loaded');
    expect(test.logs(/does not list in its dependencies/)).toEqual([
      expect.objectContaining({
        level: 'warn',
        component: 'weather:service:forecast',
        injects: 'radar:service:radar',
        provider: 'radar',
        msg:
          'component weather:service:forecast: constructor argument 1 injects "radar:service:radar" of plugin radar, which the manifest of weather ' +
          'does not list in its dependencies, so radar is not guaranteed to load first (declare radar in dependencies)',
      }),
    ]);
  });

  it('[issue 14.5] an @optional() injection of what nothing provides passes the check and gets undefined', async () => {
    const test = await load([{ id: 'weather', source: weatherSource('radar:service:radar', '@optional()'), dependencies: { radar: { version: '*', optional: true } } }]);
    expect(test.statusOf('weather').state).toBe('loaded');
    expect(test.registry.get<{ radar: unknown }>('weather:service:forecast')!.radar).toBeUndefined();
  });

  it('[issue 14.8] an optional dependency that is absent, injected without @optional(), is named as such', async () => {
    const test = await load([{ id: 'weather', source: weatherSource('radar:service:radar'), dependencies: { radar: { version: '*', optional: true } } }]);
    expect(test.statusOf('weather').reason).toContain(
      'injects "radar:service:radar", which no loaded plugin provides (radar is an optional dependency and is not loaded: mark the argument @optional())',
    );
  });
});
