import { describe, expect, it } from 'vitest';
import { WaitResumeEvent } from '../../../src/chatter/wait-resume-event.js';
import { MAX_PENDING_RESUMES_PER_STREAM, PendingResumes } from '../../../src/plugins/built_in/neo_default_chatter/session/pending-resumes.js';

const event = (name: string) => new WaitResumeEvent('sub_agent', { extra: { name } });

describe('PendingResumes (what chat_core.resume keeps until a session takes it)', () => {
  it('[issue 15] gives the kept events oldest first, per stream, each once', () => {
    const resumes = new PendingResumes();
    const [one, two, other] = [event('one'), event('two'), event('other')];
    resumes.add('s1', one);
    resumes.add('s1', two);
    resumes.add('s2', other);
    expect(resumes.take('s1')).toBe(one);
    expect(resumes.take('s1')).toBe(two);
    expect(resumes.take('s1')).toBeUndefined();
    expect(resumes.has('s1')).toBe(false);
    expect(resumes.take('s2')).toBe(other);
  });

  it('[issue 15] an event the loop delivers is taken out of the store; delivered again after a session took it, it is not taken twice', () => {
    const resumes = new PendingResumes();
    const [first, second] = [event('first'), event('second')];
    resumes.add('s1', first);
    resumes.add('s1', second);
    expect(resumes.take('s1', second)).toBe(second); // the loop stepped the run with it
    expect(resumes.take('s1')).toBe(first);
    expect(resumes.take('s1', first)).toBeUndefined(); // the loop's late copy of one a session took
    const message = new WaitResumeEvent('message');
    expect(resumes.take('s1', message)).toBe(message); // the host's own resumes pass through
  });

  it('[issue 15] the same event added twice is taken once, and a stream keeps at most the newest MAX_PENDING_RESUMES_PER_STREAM', () => {
    const resumes = new PendingResumes();
    const twice = event('twice');
    resumes.add('s1', twice);
    resumes.add('s1', twice);
    expect(resumes.take('s1')).toBe(twice);
    expect(resumes.take('s1')).toBeUndefined();

    const events = Array.from({ length: MAX_PENDING_RESUMES_PER_STREAM + 1 }, (_, index) => event(String(index)));
    const dropped = events.map((item) => resumes.add('s2', item)).filter((item) => item !== undefined);
    expect(dropped).toEqual([events[0]]);
    expect(resumes.take('s2')).toBe(events[1]);
  });
});
