import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BotProcess, useBotProcesses } from './bot-process.js';
import { freePort } from './free-port.js';
import { OneBotPeer, type PeerActionRequest } from './onebot-peer.js';

/** What `startOneBotBot` started: the bot process and a QQ client connected to it. */
export interface OneBotBot {
  bot: BotProcess;
  peer: OneBotPeer;
}

export interface OneBotBotOptions {
  /** `useBotProcesses()`'s run function (it stops the process after the test). */
  run: ReturnType<typeof useBotProcesses>;
  /** The project folder; `config/` is written into it. */
  cwd: string;
  /** What bot.toml holds besides `[platform] adapter = "onebot_v11"`. */
  botToml: string;
  token: string;
  /** The QQ account the client logs in as (also `[accounts] qq` in `botToml`, usually). */
  selfId: string;
  /** Closed by the caller after the test. */
  peers: OneBotPeer[];
  /** `config.toml` text per built-in plugin (see `BotProcessOptions.pluginConfigs`). */
  pluginConfigs?: Record<string, string>;
}

/**
 * A real `moonglass start` with the OneBot v11 adapter in reverse mode on a free port, and a
 * loopback QQ client connected to it once the bot is ready.
 */
export async function startOneBotBot(options: OneBotBotOptions): Promise<OneBotBot> {
  const { cwd, token } = options;
  const port = await freePort();
  mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
  writeFileSync(join(cwd, 'config', 'bot.toml'), `[platform]\nadapter = "onebot_v11"\n${options.botToml}`);
  writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), `access_token = "${token}"\n[reverse]\nport = ${port}\n`);
  const bot = options.run(['start', '--config-dir', 'config', '--data-dir', 'data'], { cwd, ...(options.pluginConfigs === undefined ? {} : { pluginConfigs: options.pluginConfigs }) });
  const listening = await bot.waitForLog(/^OneBot reverse mode: listening on /);
  const url = String(listening['msg']).replace('OneBot reverse mode: listening on ', '');
  await bot.waitForLog(/^ready in/);
  const peer = new OneBotPeer({ selfId: options.selfId, waitTimeoutMs: 30_000 });
  options.peers.push(peer);
  peer.connectReverse({ url, token });
  await peer.waitForConnection();
  return { bot, peer };
}

/** The text segments of a `send_*_msg` the bot made, joined. */
export function sentText(send: PeerActionRequest): string {
  const segments = send.params['message'] as { type: string; data: Record<string, unknown> }[];
  return segments.filter((segment) => segment.type === 'text').map((segment) => String(segment.data['text'])).join('');
}
