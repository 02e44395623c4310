// Child process of plugin-load.bench.ts: times one host start over a plugin root and prints JSON.
import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHost } from '../src/app/create-host.js';
import { createMemoryLogger } from '../src/kernel/logger/memory-logger.js';

const [mode, root, dataDir] = process.argv.slice(2) as ['host' | 'bare-import', string, string];
// bare-import: the baseline, every entry imported at once (as the host does), nothing else.
const start = process.hrtime.bigint();
let loaded = 0;
if (mode === 'bare-import') {
  const names = readdirSync(root).sort();
  await Promise.all(names.map((name) => import(pathToFileURL(join(root, name, 'plugin.ts')).href)));
  loaded = names.length;
} else {
  const host = createHost({
    logger: createMemoryLogger('warn').logger,
    appConfig: {},
    dataDir,
    pluginRoots: [{ path: root, builtIn: false }],
  });
  await host.start();
  loaded = host.plugins.plugins().length;
  await host.stop();
}
const ms = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(`${JSON.stringify({ ms, loaded })}\n`);
