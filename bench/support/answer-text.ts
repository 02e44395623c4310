/** The plain text of an outgoing OneBot message (an array of segments or a string). */
export function answerText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (!Array.isArray(message)) return '';
  return message
    .filter((segment: { type?: string }) => segment.type === 'text')
    .map((segment: { data?: { text?: string } }) => segment.data?.text ?? '')
    .join('');
}
