const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A TOML key: bare when it can be, else a quoted basic string. */
export function formatTomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : formatTomlString(key);
}

/** A TOML basic string. JSON escapes are valid TOML escapes; DEL must be escaped too. */
export function formatTomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007f');
}

/**
 * One TOML value, inline. `undefined` when the value has no TOML form (null, undefined,
 * functions): the caller writes the key as a comment instead.
 */
export function formatTomlValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return formatTomlString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'number':
      if (Number.isNaN(value)) return 'nan';
      if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
      return String(value);
    case 'object': {
      if (value === null) return undefined;
      if (value instanceof Date) return value.toISOString();
      if (Array.isArray(value)) {
        const items = value.map(formatTomlValue);
        if (items.some((item) => item === undefined)) return undefined;
        return `[${items.join(', ')}]`;
      }
      const entries: string[] = [];
      for (const [key, item] of Object.entries(value)) {
        const formatted = formatTomlValue(item);
        if (formatted !== undefined) entries.push(`${formatTomlKey(key)} = ${formatted}`);
      }
      return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
    }
    default:
      return undefined;
  }
}
