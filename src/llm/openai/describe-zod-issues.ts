import type * as z from 'zod';

/** Zod issues as one line: `choices.0.message: expected object, received undefined; ...`. */
export function describeZodIssues(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path === '' ? '(body)' : path}: ${issue.message}`;
  });
  if (error.issues.length > limit) lines.push(`and ${error.issues.length - limit} more`);
  return lines.join('; ');
}
