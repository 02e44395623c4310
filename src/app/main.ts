/** The process entry of `npm start` and the `moonglass` command. */
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2));
