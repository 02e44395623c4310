/** The process entry of `npm start` and the `moonglass` command. */
import { limitHeapGrowth } from './heap-growth.js';
import { runCli } from './cli.js';

limitHeapGrowth();
process.exitCode = await runCli(process.argv.slice(2));
