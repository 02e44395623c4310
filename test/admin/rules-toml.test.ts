import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { replaceTomlArrayTables } from '../../src/admin/replace-toml-array-tables.js';

// Issue 18 item 3: the console writes bot.toml [[rules]] by line, keeping every other byte.

const HEAD = `# moonglass bot settings
[bot]
nickname = "月" # the name in chats
timezone = "Asia/Shanghai"

# Per-chat rules: the first match wins.
`;
const RULES = `[[rules]]
name = "night"
hours = ["23:00-07:00"]
quiet = true

# the study group
[[rules]]
name = "study"
groups = ["100"]
frequency = 0.5
[rules.persona]
nickname = "学委"

`;
const TAIL = `# Owners and admins
[permissions]
owners = { qq = ["1"] } # me

[chat]
message_buffer_seconds = 2
`;

describe('replaceTomlArrayTables', () => {
  it('[issue 18.3] replaces only the [[rules]] blocks and their sub-tables: comments before and the tables after stay byte for byte', () => {
    const text = HEAD + RULES + TAIL;
    const result = replaceTomlArrayTables(text, 'rules', [
      { name: 'study', groups: ['100'], frequency: 0.25, persona: { nickname: '学委' } },
      { name: 'dm', private: true, tools_off: ['web_search'] },
    ]);
    expect(result).toEqual({
      ok: true,
      text:
        HEAD +
        `[[rules]]\nname = "study"\ngroups = ["100"]\nfrequency = 0.25\npersona = { nickname = "学委" }\n\n# the study group\n[[rules]]\nname = "dm"\nprivate = true\ntools_off = ["web_search"]\n\n` +
        TAIL,
    });
    const data = parse((result as { text: string }).text) as Record<string, unknown>;
    expect(data['rules']).toEqual([
      { name: 'study', groups: ['100'], frequency: 0.25, persona: { nickname: '学委' } },
      { name: 'dm', private: true, tools_off: ['web_search'] },
    ]);
  });

  it('[issue 18.3] a rule that did not change keeps its old text (its comments, its sub-tables); only the changed one is written anew', () => {
    const text = HEAD + RULES + TAIL;
    const result = replaceTomlArrayTables(text, 'rules', [
      { name: 'night', hours: ['22:00-07:00'], quiet: true },
      { name: 'study', groups: ['100'], frequency: 0.5, persona: { nickname: '学委' } },
    ]);
    const unchanged = RULES.slice(RULES.indexOf('\n# the study group'));
    expect(result).toEqual({ ok: true, text: `${HEAD}[[rules]]\nname = "night"\nhours = ["22:00-07:00"]\nquiet = true\n${unchanged}${TAIL}` });
  });

  it('[issue 18.3] keeps \\r\\n line ends, adds rules at the end of a file without them, and removes them all for an empty list', () => {
    const crlf = '[bot]\r\nnickname = "月"\r\n';
    expect(replaceTomlArrayTables(crlf, 'rules', [{ name: 'a', quiet: true }])).toEqual({ ok: true, text: `${crlf}\r\n[[rules]]\r\nname = "a"\r\nquiet = true\r\n` });
    expect(replaceTomlArrayTables('[bot]\nnickname = "月"', 'rules', [{ name: 'a' }])).toEqual({ ok: true, text: '[bot]\nnickname = "月"\n\n[[rules]]\nname = "a"\n' });
    expect(replaceTomlArrayTables('', 'rules', [{ name: 'a' }])).toEqual({ ok: true, text: '[[rules]]\nname = "a"\n' });
    const removed = replaceTomlArrayTables(HEAD + RULES + TAIL, 'rules', []);
    expect(removed).toEqual({ ok: true, text: `${HEAD}\n${TAIL}` }); // the blank line after the last rule stays
    expect(replaceTomlArrayTables(TAIL, 'rules', [])).toEqual({ ok: true, text: TAIL });
  });

  it('[issue 18.3] rules split around another table are written where the first block stood; the table between stays', () => {
    const text = `[[rules]]\nname = "a"\n\n[chat]\nmessage_buffer_seconds = 2\n\n[[rules]]\nname = "b"\n# end\n`;
    expect(replaceTomlArrayTables(text, 'rules', [{ name: 'c' }])).toEqual({ ok: true, text: `[[rules]]\nname = "c"\n\n[chat]\nmessage_buffer_seconds = 2\n\n# end\n` });
  });

  it('[issue 18.3] strings that look like headers and multi-line values inside a rule are replaced with it, not mistaken for tables', () => {
    const text = `[[rules]]\nname = "x"\npersona = { personality = """\n[chat]\n多行""" }\ngroups = [\n  "1",\n  "2",\n]\n\n[chat]\nmessage_buffer_seconds = 2\n`;
    expect(replaceTomlArrayTables(text, 'rules', [{ name: 'y' }])).toEqual({ ok: true, text: `[[rules]]\nname = "y"\n\n[chat]\nmessage_buffer_seconds = 2\n` });
  });

  it('[issue 18.3] rules written inline, or a file that does not parse, are left alone with the reason', () => {
    expect(replaceTomlArrayTables('rules = [{ name = "a" }]\n[bot]\n', 'rules', [{ name: 'b' }])).toEqual({
      ok: false,
      reason: 'writes rules in a way that cannot be rewritten by line (inline or as dotted keys); write it as [[rules]] tables by hand once',
    });
    expect(replaceTomlArrayTables('[bot\n', 'rules', [])).toEqual({ ok: false, reason: 'is not valid TOML' });
  });
});
