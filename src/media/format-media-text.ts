/** The longest description kept from a model's answer, in characters. */
export const MAX_DESCRIPTION_CHARS = 100;

/**
 * A model's answer as one short line: whitespace runs (newlines included) become one space,
 * square brackets become full-width ones (so the answer cannot close the `[图片：…]` marker
 * early), and text over `MAX_DESCRIPTION_CHARS` is cut with `…`. `''` when nothing is left.
 */
export function cleanDescription(answer: string): string {
  const line = answer.replace(/\s+/g, ' ').trim().replace(/\[/g, '［').replace(/\]/g, '］');
  const characters = Array.from(line);
  if (characters.length <= MAX_DESCRIPTION_CHARS) return line;
  return `${characters.slice(0, MAX_DESCRIPTION_CHARS - 1).join('').trimEnd()}…`;
}

/** The chat-body text of a described image. */
export function imageText(description: string): string {
  return `[图片：${description}]`;
}

/** The chat-body text of a watched video. */
export function videoText(description: string): string {
  return `[视频：${description}]`;
}

const OVER_LENGTH_SUFFIX = '，超出观看时长上限，未看]';

/** The chat-body text of a video longer than the watch limit: `约 N 秒`, or `约 N 分钟` from 60 s on (N rounded). */
export function overLengthVideoText(durationS: number): string {
  const amount = durationS >= 60 ? `${Math.round(durationS / 60)} 分钟` : `${Math.round(durationS)} 秒`;
  return `[视频：约 ${amount}${OVER_LENGTH_SUFFIX}`;
}

/** True for the over-length form: the video was skipped, not watched. */
export function isOverLengthVideoText(text: string): boolean {
  return text.startsWith('[视频：约 ') && text.endsWith(OVER_LENGTH_SUFFIX);
}
