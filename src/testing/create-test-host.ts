import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHost, type Host, type HostOptions } from '../app/create-host.js';
import type { BotConfigInput } from '../chat/bot-config.js';
import type { LogRecord } from '../kernel/logger/memory-logger.js';
import { createMemoryLogger } from '../kernel/logger/memory-logger.js';
import { ManualClock } from '../kernel/time/manual-clock.js';
import { type Random, SeededRandom } from '../kernel/time/random.js';
import type * as z from 'zod';
import type { ModelsConfigSchema } from '../llm/models-config.js';
import type { AppConfigInput } from '../kernel/config/app-config.js';
import { type ModelScript, ScriptedModel } from '../llm/scripted-model.js';
import { copyBuiltInPlugins, copyPluginFolder } from './copy-plugin-folders.js';
import { FakeAdapter } from './fake-adapter.js';

/** How {@link createTestHost} builds its host; every field optional. */
export interface TestHostOptions {
  /**
   * Plugin folders to load beside the built-in ones (copied; the originals are never written).
   * They load as third-party plugins, as `npm start` loads `./plugins`: a manifest whose
   * `host_application` range leaves out this moonglass is skipped with the reason.
   */
  plugins?: string[];
  /** Load `plugins` as built-in plugins instead (no host version check). Default false. */
  pluginsAsBuiltIn?: boolean;
  /** Load moonglass's built-in plugins (the default chatter among them). Default true. */
  builtIns?: boolean;
  /**
   * The model's replies, turn by turn (the last one repeats), or a function of each call.
   * A reply may leave fields out: `{ message: '好' }`, `{ toolCalls: [...] }`. Default: the demo rule.
   */
  script?: ModelScript;
  /** Chance draws; default a fixed seed, so every run of a test draws the same numbers. */
  random?: Random;
  /**
   * `bot.toml` settings as an object; the test host sets the default chatter to NDFC,
   * `message_buffer_seconds` to 0 and `step_timeout_seconds` to 90 unless `chat` says otherwise.
   */
  botConfig?: BotConfigInput;
  /**
   * Real model endpoints (`models.toml` as an object): with a provider here the host talks to
   * it instead of the scripted model (e.g. a loopback server in your tests).
   */
  modelsConfig?: z.input<typeof ModelsConfigSchema>;
  /** `features.toml` settings (e.g. `{ media: { images_enabled: false } }`); what is left out takes its default. */
  appConfig?: AppConfigInput;
  /** Downloads of images and videos go through it. */
  mediaFetch?: typeof fetch;
  /** `mcp.toml` as an object (`{ servers: { … } }`); default: no MCP servers. */
  mcpConfig?: unknown;
  /** `config.toml` text per plugin folder name, written before the host starts (e.g. `{ neo_default_chatter: '[plugin]\n…' }`). */
  pluginConfigs?: Record<string, string>;
}

/** A started host for tests: scripted model, fake adapter, manual clock, memory logger, in-memory database. */
export interface TestHost {
  /** The started host itself. */
  host: Host;
  /** The host's clock: time moves only when the test (or `settle`) advances it. */
  clock: ManualClock;
  /** The model every task talks to unless `modelsConfig` names a real provider; read its calls, change its script. */
  model: ScriptedModel;
  /** The fake platform: send messages in, read what the bot sent. */
  adapter: FakeAdapter;
  /** Every log line so far, oldest first; the array fills as the host logs. */
  logs: LogRecord[];
  /** Lets the host work: fires due timers and settles pending work (optionally moving time). */
  settle(ms?: number): Promise<void>;
  /** Stops the host (moving the manual clock through its grace period) and deletes the scratch folder. */
  stop(): Promise<void>;
}

/**
 * A host for testing a plugin: copies the built-in plugins and yours into a scratch folder
 * under the working directory (so `import 'moonglass'` resolves as in a real project), starts
 * with a scripted model on a manual clock, and connects a fake adapter.
 */
export async function createTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const scratchParent = join(process.cwd(), '.moonglass-test');
  mkdirSync(scratchParent, { recursive: true });
  const scratch = mkdtempSync(join(scratchParent, 'host-'));
  const root = join(scratch, 'plugins');
  const thirdPartyRoot = join(scratch, 'third-party-plugins');
  mkdirSync(root);
  mkdirSync(thirdPartyRoot);
  if (options.builtIns ?? true) copyBuiltInPlugins(root);
  const yours = options.pluginsAsBuiltIn === true ? root : thirdPartyRoot;
  for (const folder of options.plugins ?? []) copyPluginFolder(folder, yours);
  for (const [name, text] of Object.entries(options.pluginConfigs ?? {})) {
    const folder = [root, thirdPartyRoot].map((parent) => join(parent, name)).find((candidate) => existsSync(candidate));
    if (folder === undefined) throw new Error(`createTestHost: pluginConfigs names "${name}", which is no plugin folder among the built-ins and your plugins`);
    writeFileSync(join(folder, 'config.toml'), text);
  }

  const clock = new ManualClock();
  const model = new ScriptedModel(options.script);
  const { logger, records } = createMemoryLogger();
  const hostOptions: HostOptions = {
    logger,
    clock,
    appConfig: options.appConfig ?? {},
    ...(options.modelsConfig === undefined ? {} : { modelsConfig: options.modelsConfig as HostOptions['modelsConfig'] }),
    ...(options.mediaFetch === undefined ? {} : { mediaFetch: options.mediaFetch }),
    ...(options.mcpConfig === undefined ? {} : { mcpConfig: options.mcpConfig }),
    botConfig: { ...options.botConfig, chat: { default_chatter: 'neo_default_chatter:chatter:neo_default_chatter', message_buffer_seconds: 0, step_timeout_seconds: 90, ...options.botConfig?.chat } },
    database: 'memory',
    dataDir: join(scratch, 'data'),
    configDir: join(scratch, 'config'),
    pluginRoots: [
      { path: root, builtIn: true },
      { path: thirdPartyRoot, builtIn: false },
    ],
    offlineModel: model,
    // Seeded by default: a chance draw (the group probability gate) comes out the same every run.
    random: options.random ?? new SeededRandom(0x6d676c73),
  };
  const host = createHost(hostOptions);
  const adapter = new FakeAdapter(host);
  await host.start();
  return {
    host,
    clock,
    model,
    adapter,
    logs: records,
    async settle(ms = 0) {
      // Small steps: work that starts a timer only after earlier work finished still sees time pass.
      const step = 50;
      for (let elapsed = 0; elapsed < ms; elapsed += step) await clock.advance(Math.min(step, ms - elapsed));
      for (let round = 0; round < 3; round += 1) await clock.advance(0);
    },
    async stop() {
      // Stopping gives work in flight a grace period on the host's clock; on a manual clock
      // that time must be made to pass, or a test that ended mid-reply would hang here.
      let stopped = false;
      const stopping = host.stop().finally(() => {
        stopped = true;
      });
      while (!stopped) {
        await clock.advance(500);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await stopping;
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
