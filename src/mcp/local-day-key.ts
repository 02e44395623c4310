/** The local calendar day of `epochMs` as `YYYY-MM-DD`: the key of the daily MCP quotas. */
export function localDayKey(epochMs: number): string {
  const date = new Date(epochMs);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}
