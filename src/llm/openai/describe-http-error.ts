const MAX_EXCERPT = 300;

/**
 * A one-line reason for an HTTP error answer: the status, and the provider's own message
 * (`{ error: { message } }`, `{ error: '...' }`, `{ message }`) or the start of the body.
 */
export function describeHttpError(status: number, statusText: string, body: string): string {
  let detail = body.trim();
  try {
    const parsed = JSON.parse(detail) as unknown;
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const error = record['error'];
      if (typeof error === 'string') detail = error;
      else if (typeof error === 'object' && error !== null && typeof (error as Record<string, unknown>)['message'] === 'string') {
        detail = (error as Record<string, string>)['message']!;
      } else if (typeof record['message'] === 'string') detail = record['message'];
    }
  } catch {
    // Not JSON: keep the text.
  }
  detail = detail.replace(/\s+/g, ' ');
  if (detail.length > MAX_EXCERPT) detail = `${detail.slice(0, MAX_EXCERPT)}…`;
  const head = `HTTP ${status}${statusText === '' ? '' : ` ${statusText}`}`;
  return detail === '' ? head : `${head}: ${detail}`;
}
