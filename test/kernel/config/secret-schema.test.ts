import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { containsSecret, reachesSecret, secretIssueReason } from '../../../src/kernel/config/secret-schema.js';

describe('reachesSecret', () => {
  const Schema = z.object({
    providers: z.record(z.string(), z.object({ api_key: z.string().meta({ secret: true }).default(''), url: z.string() })).default({}),
    list: z.array(z.object({ token: z.string().meta({ secret: true }).transform((value) => value.trim()) })).optional(),
    either: z.union([z.number(), z.string().meta({ secret: true })]),
    plain: z.string(),
  });

  it('follows records, arrays, wrappers, pipes and unions to the marked schema', () => {
    expect(reachesSecret(Schema, ['providers', 'main', 'api_key'])).toBe(true);
    expect(reachesSecret(Schema, ['providers', 'main', 'url'])).toBe(false);
    expect(reachesSecret(Schema, ['list', 0, 'token'])).toBe(true);
    expect(reachesSecret(Schema, ['either'])).toBe(true);
    expect(reachesSecret(Schema, ['plain'])).toBe(false);
  });

  it('counts a path whose value holds a secret further down as secret', () => {
    expect(reachesSecret(Schema, ['providers'])).toBe(true);
    expect(reachesSecret(Schema, ['providers', 'main'])).toBe(true);
    expect(containsSecret(z.object({ plain: z.string() }))).toBe(false);
  });
});

describe('secretIssueReason', () => {
  it('rebuilds zod\'s own words instead of a custom message that quotes the value, and hides allowed values', () => {
    const quoting = z.string().min(30, { error: (issue) => `${String(issue.input)} is too short` });
    const [short] = quoting.safeParse('sk-live-0badc0ffee').error!.issues;
    expect(secretIssueReason(short!, 'sk-live-0badc0ffee')).toBe('Too small: expected string to have >=30 characters');
    const [wrongType] = quoting.safeParse(42).error!.issues;
    expect(secretIssueReason(wrongType!, 42)).toBe('Invalid input: expected string, received number');
    const [notListed] = z.enum(['sk-one', 'sk-two']).safeParse('sk-three').error!.issues;
    expect(secretIssueReason(notListed!, 'sk-three')).toBe('Invalid option: not one of the values the model allows');
  });

  it('keeps the model\'s message for an empty value, which it cannot quote', () => {
    const [required] = z.string().min(1, 'API key is required').safeParse('').error!.issues;
    expect(secretIssueReason(required!, '')).toBe('API key is required');
  });
});
