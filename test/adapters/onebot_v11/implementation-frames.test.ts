import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../../src/adapters/onebot_v11/codec.js';
import { buildEnvelope } from '../../../src/adapters/onebot_v11/segments.js';
import { InboundEnvelopeSchema } from '../../../src/chat/inbound-envelope.js';

/**
 * Frames as NapCat, Lagrange.OneBot and SnowLuma send them, written from their public
 * documentation (frames/README.md names the source of each). Every form of a fixture
 * (`array`, `string`: the implementation's two message formats; `json` for frames without a
 * message) must decode to the one expectation: the exact envelope, or the stated refusal.
 */
const FRAMES = fileURLToPath(new URL('../../fixtures/adapters/onebot_v11/frames/', import.meta.url));

type Expectation =
  | { kind: 'message'; envelope: Record<string, unknown> }
  | { kind: 'meta'; meta_event_type: string }
  | { kind: 'ignored' | 'invalid'; reason: string };

interface Fixture {
  description: string;
  source: string[];
  frames: Record<string, Record<string, unknown>>;
  expect: Expectation;
}

const implementations = readdirSync(FRAMES, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

const fixtures = implementations.flatMap((implementation) =>
  readdirSync(`${FRAMES}${implementation}`)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ implementation, name, fixture: JSON.parse(readFileSync(`${FRAMES}${implementation}/${name}`, 'utf8')) as Fixture })),
);

const cases = fixtures.flatMap(({ implementation, name, fixture }) =>
  Object.entries(fixture.frames).map(([form, frame]) => ({ title: `${implementation}/${name} (${form}): ${fixture.description}`, frame, expected: fixture.expect })),
);

/** Nobody else's own messages: the event's `self_id` is the only account, no message was sent by the bot. */
const self = { selfIds: new Set<string>(), isSentByBot: () => false };

describe('frames from OneBot v11 implementations', () => {
  it('has fixtures for NapCat, Lagrange and SnowLuma, each naming its source, with every message event in both forms', () => {
    expect(implementations.sort()).toEqual(['lagrange', 'napcat', 'snowluma']);
    const readme = readFileSync(`${FRAMES}README.md`, 'utf8');
    for (const { implementation, name, fixture } of fixtures) {
      expect(fixture.source.length, `${implementation}/${name} names no source`).toBeGreaterThan(0);
      expect(readme, `README.md does not list ${implementation}/${name}`).toContain(`${implementation}/${name}`);
      // A message event (also the bot's own, refused) comes in both forms; a meta event or a refused non-event in one.
      const messageEvent = fixture.expect.kind === 'message' || fixture.expect.kind === 'ignored';
      expect(Object.keys(fixture.frames).sort(), `${implementation}/${name}`).toEqual(messageEvent ? ['array', 'string'] : ['json']);
    }
  });

  it.each(cases)('$title', ({ frame, expected }) => {
    const decoded = decodeFrame(JSON.stringify(frame));
    switch (expected.kind) {
      case 'message': {
        if (decoded.kind !== 'message') throw new Error(`expected a message, decoded ${JSON.stringify(decoded)}`);
        const problems: string[] = [];
        const { raw, ...envelope } = buildEnvelope(decoded.event, 'qq', self, (problem) => problems.push(problem));
        expect(envelope).toEqual(expected.envelope);
        expect(raw).toEqual(frame);
        expect(InboundEnvelopeSchema.safeParse({ ...envelope, raw }).success).toBe(true);
        // Only a segment the adapter does not know is reported; it is still in the envelope.
        const others = (expected.envelope['segments'] as { type: string }[]).filter((segment) => segment.type === 'other');
        expect(problems).toHaveLength(others.length);
        break;
      }
      case 'meta':
        if (decoded.kind !== 'meta') throw new Error(`expected a meta event, decoded ${JSON.stringify(decoded)}`);
        expect(decoded.event).toEqual(frame);
        expect(decoded.event.meta_event_type).toBe(expected.meta_event_type);
        break;
      default:
        expect(decoded).toEqual({ kind: expected.kind, reason: expected.reason });
    }
  });
});
