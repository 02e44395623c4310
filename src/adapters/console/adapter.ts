import { createInterface } from 'node:readline';
import type { AdapterFactory } from '../adapter-context.js';
import type { OutboundMedia } from '../../chat/outbound-sink.js';
import { CONSOLE_PLATFORM, ConsoleAction } from './console-actions.js';
import type { ConsoleConfig } from './config.js';
import { formatToolCall, readToolCallNotice } from './format-tool-call.js';

export { CONSOLE_PLATFORM };

/**
 * The console adapter: every line on stdin is a private message from one user; every send
 * of the bot is printed as `<nickname>> <text>` on stdout as it happens (a picture, voice clip
 * or video it sends as `[图片 <file>]`, `[语音 …]`, `[视频 …]` after the text), and each tool call
 * the host reports (`console_show_tool_call`) as a short `· name {args} → result` line. In a
 * terminal it shows a greeting and a prompt once the host has printed its start-up report
 * (`console_start_chat`), and Ctrl+C stops the whole bot; from a pipe it reads line by line
 * and, when the input ends, tells the host, which answers what is pending and then stops.
 */
const createConsoleAdapter: AdapterFactory<ConsoleConfig> = (ctx) => {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const lines = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
  const session = Date.now().toString(36);
  let received = 0;
  let sent = 0;
  // The prompt waits for the host's start-up report, so it is not buried under those lines.
  let chatting = false;
  // Lines are handed over one at a time, so the host stores them in the order they were typed.
  let queue: Promise<unknown> = Promise.resolve();

  const prompt = (keepCursor = false): void => {
    if (interactive && chatting) lines.prompt(keepCursor);
  };

  const print = (text: string): void => {
    if (interactive && chatting) process.stdout.write('\r\x1b[2K');
    process.stdout.write(`${text}\n`);
    prompt(true);
  };

  const startChat = (): void => {
    if (!interactive) return;
    if (!chatting) process.stdout.write(`Chatting with ${ctx.bot.nickname}. Type a message and press Enter; Ctrl+C quits.\n`);
    chatting = true;
    prompt();
  };

  lines.setPrompt(ctx.config.prompt);
  lines.on('line', (line) => {
    const content = line.trim();
    if (content === '') {
      prompt();
      return;
    }
    received += 1;
    const messageId = `${session}-${received}`;
    queue = queue.then(async () => {
      const ack = await ctx.receive({
        platform: CONSOLE_PLATFORM,
        message_id: messageId,
        chat_type: 'private',
        sender: { id: ctx.config.user_id, name: ctx.config.user_name },
        content,
        mentions_bot: true,
      });
      if (!ack.stored) process.stderr.write(`(the message was not taken in: ${ack.reason})\n`);
      prompt();
    });
  });
  lines.on('close', () => {
    if (ctx.signal.aborted) return;
    void queue.then(() => ctx.inputClosed());
  });
  // In a terminal readline turns Ctrl+C into this event instead of a signal; stop the bot.
  lines.on('SIGINT', () => {
    process.kill(process.ppid, 'SIGINT');
  });
  // The terminal also signals our process group; the host decides when we stop.
  process.on('SIGINT', () => undefined);

  ctx.setStatus({ connected: true, detail: interactive ? 'chatting in this terminal' : 'reading messages from standard input' });

  return {
    async deliver(delivery) {
      sent += 1;
      const reply = delivery.replyTo === null ? '' : `(回复 ${delivery.replyTo}) `;
      const at = delivery.at === null ? '' : `@${delivery.at} `;
      const media = (delivery.media ?? []).map(describeMedia);
      print(`${ctx.bot.nickname}> ${reply}${at}${[delivery.content, ...media].filter((part) => part !== '').join(' ')}`);
      return { messageId: `${session}-out-${sent}` };
    },
    async call(action, params) {
      switch (action) {
        case ConsoleAction.START_CHAT:
          startChat();
          return {};
        case ConsoleAction.SHOW_TOOL_CALL:
          print(formatToolCall(readToolCallNotice(params)));
          return {};
        default:
          throw new Error(`the console adapter has no platform action "${action}" (it has ${Object.values(ConsoleAction).join(', ')})`);
      }
    },
    async stop() {
      lines.close();
      await queue;
    },
  };
};

const MEDIA_LABEL: Readonly<Record<OutboundMedia['kind'], string>> = { image: '图片', record: '语音', video: '视频' };

/**
 * A picture, voice clip or video as the console shows it: `[图片 https://…]`, `[语音 file:///…]`;
 * inline data by its size only (`[图片 base64, 12 KiB]`), not the data itself.
 */
function describeMedia(media: OutboundMedia): string {
  const label = MEDIA_LABEL[media.kind];
  if (!media.file.startsWith('base64://')) return `[${label} ${media.file}]`;
  const bytes = Buffer.byteLength(media.file.slice('base64://'.length), 'base64');
  return `[${label} base64, ${bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KiB`}]`;
}

export default createConsoleAdapter;
