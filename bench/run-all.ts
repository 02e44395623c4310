import 'reflect-metadata';
import { benchEventBus } from './event-bus.bench.js';
import { benchGetService } from './get-service.bench.js';

console.log(`moonglass benchmarks on Node ${process.version}, ${process.platform}/${process.arch}`);
const met = [await benchEventBus(), await benchGetService()];
console.log(met.every(Boolean) ? '\nall goals met' : '\nsome goals missed (see above)');
