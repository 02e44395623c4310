import type { Message } from 'moonglass';

const pad = (value: number): string => String(value).padStart(2, '0');

/**
 * `epochSeconds` in local time, by a strftime subset: `%Y %m %d %H %M %S %%` (24-hour clock).
 * Other directives stay as written. `'%H:%M'` gives `09:05`.
 */
export function formatMessageTime(epochSeconds: number, format: string): string {
  const date = new Date(epochSeconds * 1000);
  return format.replace(/%([YmdHMS%])/g, (_match, directive: string) => {
    switch (directive) {
      case 'Y':
        return String(date.getFullYear());
      case 'm':
        return pad(date.getMonth() + 1);
      case 'd':
        return pad(date.getDate());
      case 'H':
        return pad(date.getHours());
      case 'M':
        return pad(date.getMinutes());
      case 'S':
        return pad(date.getSeconds());
      default:
        return '%';
    }
  });
}

/** Who sent a message, as the model reads it: the group card when there is one, else the name. */
export function senderLabel(message: Message): string {
  const card = message.senderCard?.trim() ?? '';
  return card !== '' ? card : message.senderName;
}

/** One message as a prompt line: `【09:05】明明 [10001]： 你好`. */
export function formatMessageLine(message: Message, timeFormat: string): string {
  const text = message.processedPlainText !== '' ? message.processedPlainText : message.content;
  return `【${formatMessageTime(message.time, timeFormat)}】${senderLabel(message)} [${message.senderId}]： ${text}`;
}
