import { createInterface } from 'node:readline';
import type { AdapterFactory } from '../adapter-context.js';
import type { ConsoleConfig } from './config.js';

export const CONSOLE_PLATFORM = 'console';

/**
 * The console adapter: every line on stdin is a private message from one user; every send
 * of the bot is printed as `<nickname>> <text>` on stdout as it happens. In a terminal it
 * shows a prompt and Ctrl+C stops the whole bot; from a pipe it reads line by line and,
 * when the input ends, tells the host, which answers what is pending and then stops.
 */
const createConsoleAdapter: AdapterFactory<ConsoleConfig> = (ctx) => {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const lines = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
  const session = Date.now().toString(36);
  let received = 0;
  let sent = 0;
  // Lines are handed over one at a time, so the host stores them in the order they were typed.
  let queue: Promise<unknown> = Promise.resolve();

  const print = (text: string): void => {
    if (interactive) {
      process.stdout.write('\r\x1b[2K');
      process.stdout.write(`${text}\n`);
      lines.prompt(true);
    } else {
      process.stdout.write(`${text}\n`);
    }
  };

  lines.setPrompt(ctx.config.prompt);
  lines.on('line', (line) => {
    const content = line.trim();
    if (content === '') {
      if (interactive) lines.prompt();
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
      if (interactive) lines.prompt();
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

  if (interactive) {
    process.stdout.write(`Chatting with ${ctx.bot.nickname}. Type a message and press Enter; Ctrl+C quits.\n`);
    lines.prompt();
  }
  ctx.setStatus({ connected: true, detail: interactive ? 'chatting in this terminal' : 'reading messages from standard input' });

  return {
    async deliver(delivery) {
      sent += 1;
      const reply = delivery.replyTo === null ? '' : `(回复 ${delivery.replyTo}) `;
      const at = delivery.at === null ? '' : `@${delivery.at} `;
      print(`${ctx.bot.nickname}> ${reply}${at}${delivery.content}`);
      return { messageId: `${session}-out-${sent}` };
    },
    async stop() {
      lines.close();
      await queue;
    },
  };
};

export default createConsoleAdapter;
