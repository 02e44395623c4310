import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BotProcess, BotProcessOptions } from '../support/bot-process.js';
import { freePort } from '../support/free-port.js';
import { projectRoot } from '../support/temp-dir.js';
import type { LoopbackRegistry } from '../support/verdaccio.js';
import { HOST_RANGE, pluginManifest, shoutPackage, TINY_SHOUT, writeFiles } from '../plugin-system/support/plugin-packages.js';

// What the market tests share: plugin packages published to a loopback registry, a bot
// project whose npm points there, and `moonglass start` running in it with its web console.

export const SHOUT = 'moonglass-plugin-shout';
export const FUTURE = 'moonglass-plugin-future';

/**
 * Publishes `moonglass-plugin-shout` at `version` (tool `shout_text`, through the tiny-shout
 * library, also published once): its package.json names the host range for search, as
 * `moonglass plugin new` writes it.
 */
export async function publishShout(registry: LoopbackRegistry, dir: string, version: string, options: { onLoadThrows?: string } = {}): Promise<void> {
  if (version === '1.0.0') {
    writeFiles(join(dir, 'tiny-shout'), TINY_SHOUT);
    await registry.publish(join(dir, 'tiny-shout'));
  }
  const files = shoutPackage(SHOUT, 'demo.shout', { version, description: 'shouts a line' });
  const packageJson = { ...(JSON.parse(files['package.json']!) as Record<string, unknown>), version, description: 'shouts what you say', moonglass: { host_application: HOST_RANGE }, files: ['_manifest.json', 'plugin.js'] };
  const folder = join(dir, `shout-${version}`);
  // Each version says which it is in its answer: the running host's answer tells which code runs.
  const entry = files['plugin.js']!.replace('`${shout(invocation.arguments.text)}', `\`${version} \${shout(invocation.arguments.text)}`);
  const loaded = options.onLoadThrows === undefined ? entry : entry.replace('static configModel = ShoutConfig;', `static configModel = ShoutConfig;\n  async onLoad() {\n    throw new Error(${JSON.stringify(options.onLoadThrows)});\n  }`);
  writeFiles(folder, { ...files, 'plugin.js': loaded, 'package.json': `${JSON.stringify(packageJson, null, 2)}\n` });
  await registry.publish(folder);
}

/** Publishes `moonglass-plugin-future`, whose host range (9.x) leaves this host out. */
export async function publishFuture(registry: LoopbackRegistry, dir: string): Promise<void> {
  const range = { min_version: '9.0.0', max_version: '9.9.0' };
  const folder = join(dir, 'future');
  writeFiles(folder, {
    'package.json': `${JSON.stringify({ name: FUTURE, version: '1.0.0', type: 'module', description: 'shouts on moonglass 9', keywords: ['moonglass-plugin', 'shout'], moonglass: { host_application: range }, files: ['_manifest.json', 'plugin.js'] }, null, 2)}\n`,
    '_manifest.json': pluginManifest('demo.future', { host_application: range }),
    'plugin.js': "import { ToolPlugin } from 'moonglass';\nexport class FuturePlugin extends ToolPlugin {}\n",
  });
  await registry.publish(folder);
}

/**
 * A bot project whose npm uses `registryUrl` (its .npmrc). moonglass itself is a `file:`
 * dependency on a stand-in that re-exports this checkout, so npm keeps it through installs
 * and a plugin's `import 'moonglass'` reaches the running host's modules.
 */
export function writeBotProject(project: string, registryUrl: string): void {
  writeFiles(join(project, 'moonglass-host'), {
    'package.json': `${JSON.stringify({ name: 'moonglass', version: '0.1.0', type: 'module', exports: { '.': './index.js' } })}\n`,
    'index.js': `export * from ${JSON.stringify(pathToFileURL(join(projectRoot, 'src/index.ts')).href)};\n`,
  });
  writeFiles(project, {
    'package.json': `${JSON.stringify({ name: 'bot', version: '1.0.0', private: true, dependencies: { moonglass: 'file:moonglass-host' } }, null, 2)}\n`,
    '.npmrc': `registry=${registryUrl}\nfetch-retries=0\naudit=false\nfund=false\n`,
  });
}

/** A loopback address where nothing listens: a registry that cannot be reached. */
export async function closedRegistryUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/`;
}

export interface RunningConsole {
  bot: BotProcess;
  /** The console's address without the token, and the token. */
  origin: string;
  token: string;
  /** The address a person opens (the token in the fragment). */
  url: string;
  api(path: string, init?: RequestInit): Promise<Response>;
}

/** `moonglass start` in `project` (npm there uses `registryUrl`), once its web console listens. */
export async function startBotWithConsole(run: (args: readonly string[], options?: BotProcessOptions) => BotProcess, project: string, registryUrl: string): Promise<RunningConsole> {
  const bot = run(['start'], { cwd: project, env: { npm_config_registry: registryUrl } });
  const announced = await bot.waitForLog(/^web console: /, 60_000);
  const url = String(announced['msg']).slice('web console: '.length);
  const parsed = new URL(url);
  const token = parsed.hash.slice('#token='.length);
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${parsed.origin}/api${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
  return { bot, origin: parsed.origin, token, url, api };
}

export interface MarketJobView {
  id: number;
  action: string;
  name: string;
  state: 'running' | 'succeeded' | 'failed';
  lines: string[];
  summary: string | null;
}

/** Starts a change through the API and polls it until it ends. */
export async function runChange(api: RunningConsole['api'], action: string, name: string): Promise<MarketJobView> {
  const started = await api('/market/changes', { method: 'POST', body: JSON.stringify({ action, name }) });
  const { job } = (await started.json()) as { job: MarketJobView };
  if (started.status !== 202) throw new Error(`the change was not started (${started.status}): ${JSON.stringify(job)}`);
  return waitForJob(api, job.id);
}

export async function waitForJob(api: RunningConsole['api'], id: number): Promise<MarketJobView> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const { job } = (await (await api(`/market/changes/${id}`)).json()) as { job: MarketJobView };
    if (job.state !== 'running') return job;
    if (Date.now() > deadline) throw new Error(`market change ${id} still runs: ${job.lines.join(' | ')}`);
    // Real npm runs: polled as the page polls them.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
