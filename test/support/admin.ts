import { join } from 'node:path';
import { afterEach } from 'vitest';
import { AdminServer } from '../../src/admin/admin-server.js';
import { adminViewOf } from '../../src/app/start-admin.js';
import { createTestHost, type TestHost, type TestHostOptions } from '../../src/testing/create-test-host.js';
import { projectRoot } from './temp-dir.js';

export const SECRET_PLUGIN = join(projectRoot, 'test/fixtures/plugin-roots/third-party/secret-settings');

/** The secret-settings fixture's config.toml text, holding `secret` as its API key. */
export function secretPluginConfig(secret: string): Record<string, string> {
  return { 'secret-settings': `[plugin]\nenabled = true\napi_key = "${secret}"\ndaily_limit = 10\nmode = "fast"\n` };
}

export interface ConsoleUnderTest {
  test: TestHost;
  server: AdminServer;
  /** Calls the API with the token. */
  api(path: string, init?: RequestInit): Promise<Response>;
}

/** Starts test hosts with a web console on a free port; both stop after each test. */
export function useConsoles(): (options?: TestHostOptions) => Promise<ConsoleUnderTest> {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanup.length > 0) await cleanup.pop()!();
  });
  return async (options = {}) => {
    const test = await createTestHost(options);
    cleanup.push(() => test.stop());
    const server = new AdminServer({ port: 0, view: adminViewOf(test.host, undefined) });
    await server.start();
    cleanup.push(() => server.stop());
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${server.port}/api${path}`, {
        ...init,
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...init.headers },
      });
    return { test, server, api };
  };
}
