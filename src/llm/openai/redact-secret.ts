/** `text` with every occurrence of `secret` replaced by `[redacted]` (servers sometimes echo a bad key). */
export function redactSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return text;
  return text.split(secret).join('[redacted]');
}
