import type { InboundSegment } from '../../../chat/inbound-envelope.js';

/** The longest detail a placeholder quotes (a share title, a card prompt); longer ones are cut with `…`. */
const MAX_DETAIL_CHARS = 60;

function nonBlank(...values: (string | undefined)[]): string | undefined {
  return values.map((value) => value?.trim()).find((value): value is string => value !== undefined && value !== '');
}

function clip(text: string): string {
  const characters = [...text];
  return characters.length <= MAX_DETAIL_CHARS ? text : `${characters.slice(0, MAX_DETAIL_CHARS).join('')}…`;
}

/** `[label]`, or `[label：detail]` when there is a detail. */
function labelled(label: string, detail: string | undefined): string {
  return detail === undefined ? `[${label}]` : `[${label}：${clip(detail)}]`;
}

/** The prompt of a JSON card (`prompt`, else `desc`), the words QQ itself shows for it. */
function cardPrompt(json: string | undefined): string | undefined {
  if (json === undefined) return undefined;
  try {
    const card: unknown = JSON.parse(json);
    if (typeof card !== 'object' || card === null) return undefined;
    const { prompt, desc } = card as { prompt?: unknown; desc?: unknown };
    return nonBlank(typeof prompt === 'string' ? prompt : undefined, typeof desc === 'string' ? desc : undefined);
  } catch {
    return undefined;
  }
}

/**
 * The text a segment shows in the prompt. Image and video stay exactly `[图片]` / `[视频]`:
 * the host finds those to put a description in their place. A reply shows nothing (the line
 * says which message it answers); an at shows `@name`.
 */
export function placeholderOf(segment: InboundSegment): string {
  switch (segment.type) {
    case 'text':
      return segment.text;
    case 'face':
      return '[表情]';
    case 'image':
      return '[图片]';
    case 'record':
      return '[语音]';
    case 'video':
      return '[视频]';
    case 'at': {
      if (segment.qq === 'all') return '@全体成员';
      return `@${nonBlank(segment.name) ?? segment.qq ?? ''}`;
    }
    case 'rps':
      return '[猜拳]';
    case 'dice':
      return labelled('骰子', nonBlank(segment.result));
    case 'shake':
      return '[窗口抖动]';
    case 'poke':
      return labelled('戳一戳', nonBlank(segment.name));
    case 'anonymous':
      return '[匿名]';
    case 'share':
      return labelled('链接', nonBlank(segment.title, segment.url));
    case 'contact':
      return labelled(segment.kind === 'group' ? '推荐群' : '推荐好友', nonBlank(segment.id));
    case 'location': {
      const where = nonBlank(segment.title, segment.content) ?? (segment.lat !== undefined && segment.lon !== undefined ? `${segment.lat},${segment.lon}` : undefined);
      return labelled('位置', where);
    }
    case 'music':
      return labelled('音乐分享', nonBlank(segment.title));
    case 'reply':
      return '';
    case 'forward':
      return '[聊天记录]';
    case 'node': {
      const who = nonBlank(segment.nickname, segment.user_id);
      const said = nonBlank(segment.text);
      return labelled('转发消息', who === undefined ? said : said === undefined ? who : `${who}：${said}`);
    }
    case 'xml':
      return '[卡片消息]';
    case 'json': {
      const prompt = cardPrompt(segment.data);
      return prompt === undefined ? '[卡片消息]' : labelled('卡片', prompt);
    }
    case 'file':
      return labelled('文件', nonBlank(segment.name, segment.file) ?? '未命名');
    case 'mface':
      return nonBlank(segment.summary) ?? '[表情]';
    case 'other':
      return `[${segment.wire_type}]`;
  }
}
