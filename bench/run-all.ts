import 'reflect-metadata';
import { benchEventBus } from './event-bus.bench.js';
import { benchGetService } from './get-service.bench.js';
import { benchPluginLoad } from './plugin-load.bench.js';
import { benchChatTurn } from './chat-turn.bench.js';
import { benchNdfcTurn, benchNdfcTurnAgainstBaseline } from './ndfc-turn.bench.js';
import { benchIdleMemory } from './idle-memory.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchInstalledStartup } from './installed-startup.bench.js';
import { benchLoad } from './load.bench.js';
import { benchAccountsLoad } from './accounts-load.bench.js';
import { benchCommands } from './commands.bench.js';
import { benchSoak, soakOptionsFromEnvironment } from './soak.bench.js';

console.log(`moonglass benchmarks on Node ${process.version}, ${process.platform}/${process.arch}`);
const met = [await benchEventBus(), await benchGetService(), await benchChatTurn(), await benchNdfcTurn(), benchNdfcTurnAgainstBaseline(), await benchIdleMemory(), benchPluginLoad(), await benchStartup(), await benchInstalledStartup(), await benchLoad(), await benchAccountsLoad(), await benchCommands()];
// The soak takes 10 minutes (MOONGLASS_SOAK_SECONDS shortens it): only with MOONGLASS_SOAK=1, or alone as `npm run bench:soak`.
if (process.env['MOONGLASS_SOAK'] === '1') met.push(await benchSoak(soakOptionsFromEnvironment()));
console.log(met.every(Boolean) ? '\nall goals met' : '\nsome goals missed (see above)');
