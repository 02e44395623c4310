import 'reflect-metadata';
import { benchEventBus } from './event-bus.bench.js';
import { benchGetService } from './get-service.bench.js';
import { benchPluginLoad } from './plugin-load.bench.js';
import { benchChatTurn } from './chat-turn.bench.js';
import { benchNdfcTurn } from './ndfc-turn.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchLoad } from './load.bench.js';

console.log(`moonglass benchmarks on Node ${process.version}, ${process.platform}/${process.arch}`);
const met = [await benchEventBus(), await benchGetService(), await benchChatTurn(), await benchNdfcTurn(), benchPluginLoad(), await benchStartup(), await benchLoad()];
console.log(met.every(Boolean) ? '\nall goals met' : '\nsome goals missed (see above)');
