// A Koishi 4.18 echo bot for bench/peers.bench.ts, run with plain `node`:
//
//   node bench/support/peers/koishi-bot.mjs <koishi folder> <port> <self id> [<sqlite file>]
//
// Koishi is resolved from <koishi folder> (installed there by the bench, outside the project's
// dependencies). The bot loads the `http` and `server` services Koishi's own loader adds to every
// app (@koishijs/plugin-http, @koishijs/plugin-server on 127.0.0.1:<port>), the OneBot adapter
// (koishi-plugin-adapter-onebot) in `ws-reverse` protocol for <self id> at /onebot, and a
// middleware that answers every private message with the text moonglass's demo model answers.
// With <sqlite file> it also loads Koishi's SQLite database (@minatojs/driver-sqlite, the driver
// Koishi 4.18's database-sqlite plugin wraps), and Koishi then observes the user of every message
// in it (reads the user row, creates it on first sight, writes back what changed).
// Prints `koishi-peer: ready` once the server listens (and the database is up); SIGTERM exits 0.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const [folder, port, selfId, sqliteFile] = process.argv.slice(2);
if (folder === undefined || port === undefined || selfId === undefined) {
  console.error('usage: koishi-bot.mjs <koishi folder> <port> <self id> [<sqlite file>]');
  process.exit(2);
}
const require = createRequire(join(resolve(folder), 'package.json'));
const { Context } = require('koishi');
const http = require('@koishijs/plugin-http');
const server = require('@koishijs/plugin-server');
const onebot = require('koishi-plugin-adapter-onebot');

const DEMO_PREFIX = '（演示模型）收到：';

const app = new Context();
app.plugin(http.default ?? http, {});
app.plugin(server.default ?? server, { host: '127.0.0.1', port: Number(port) });
const waits = [new Promise((done) => app.on('server/ready', done))]; // app.start() resolves even when listening failed
if (sqliteFile !== undefined) {
  const { SQLiteDriver } = require('@minatojs/driver-sqlite');
  app.plugin(SQLiteDriver, { path: resolve(sqliteFile) });
  waits.push(new Promise((done) => app.inject(['database'], () => done())));
}
app.plugin(onebot.default ?? onebot, { protocol: 'ws-reverse', selfId, path: '/onebot' });
app.middleware((session, next) => {
  if (!session.isDirect) return next();
  return DEMO_PREFIX + session.content;
});

// As Koishi's own worker (koishi/lib/worker) stops on a signal: the `exit` event, then exit.
let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  app.parallel('exit', 'SIGTERM').finally(() => process.exit(0));
});

await app.start();
await Promise.all(waits);
console.log('koishi-peer: ready');
