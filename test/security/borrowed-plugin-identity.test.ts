import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BindingOverrideError, HostStateError, inject, PluginScope, service, TOKENS } from '../../src/index.js';
import { catchError } from '../support/catch-error.js';
import { useTestHosts } from '../support/ndfc.js';
import { projectRoot } from '../support/temp-dir.js';

const VAULT = join(projectRoot, 'test/fixtures/plugin-roots/isolation/vault');
const SENTINEL = 'sk-vault-51d2b7';

/** A class that would read whichever plugin the container hands it, and so that plugin's config. */
@service('keeper')
class Borrower {
  readonly apiKey: string;
  constructor(@inject(TOKENS.Plugin) plugin: { config: { api_key: string } }) {
    this.apiKey = plugin.config.api_key;
  }
}

describe('a plugin’s identity cannot be borrowed', () => {
  const start = useTestHosts();
  const startVault = () => start({ builtIns: false, plugins: [VAULT], pluginConfigs: { vault: `[plugin]\napi_key = "${SENTINEL}"\n` } });

  it('[security] a hand-made PluginScope under a loaded plugin’s id cannot register or override, and the registry is unchanged', async () => {
    const test = await startVault();
    const { registry } = test.host;
    const before = registry.list();
    const borrowed = new PluginScope('fixture.vault', test.host.logger);
    @service('spy')
    class Spy {}
    const register = catchError(() => registry.register(borrowed, Spy));
    expect(register).toBeInstanceOf(BindingOverrideError);
    expect((register as Error).message).toContain('component fixture.vault:service:spy comes through a PluginScope("fixture.vault") that the host did not create for the loaded plugin "fixture.vault"');
    expect(() => registry.override('fixture.vault:service:keeper', { useClass: Borrower }, borrowed)).toThrow(BindingOverrideError);
    expect(registry.list()).toEqual(before);
    expect(test.host.getService('fixture.vault:service:spy')).toBeUndefined();
    expect(test.host.getService<{ hasKey(): boolean }>('fixture.vault:service:keeper')!.hasKey()).toBe(true);
  });

  it('[security] the host refuses a second live scope for a loaded plugin’s id', async () => {
    const test = await startVault();
    const error = catchError(() => test.host.createScope('fixture.vault'));
    expect(error).toBeInstanceOf(HostStateError);
    expect((error as Error).message).toMatch(/createScope\("fixture.vault"\).*plugin "fixture.vault" has a live scope already/);
  });

  it('[security] an override bound under another plugin’s signature does not receive that plugin or its config', async () => {
    const test = await startVault();
    const restore = test.host.registry.override('fixture.vault:service:keeper', { useClass: Borrower });
    const error = catchError(() => test.host.getService<Borrower>('fixture.vault:service:keeper'));
    expect(String((error as Error).message)).not.toContain(SENTINEL);
    restore();
    expect(test.host.getService<{ hasKey(): boolean }>('fixture.vault:service:keeper')!.hasKey()).toBe(true);
  });
});
