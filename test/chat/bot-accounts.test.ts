import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { checkConfigFiles } from '../../src/app/check-config-files.js';
import { createHost } from '../../src/app/create-host.js';
import { accountGroupsOf, defaultAccountOf, defaultAccounts, groupsFor, personaFor } from '../../src/chat/bot-accounts.js';
import { BotConfigSchema } from '../../src/chat/bot-config.js';
import { ConfigFileError } from '../../src/kernel/errors/config-file-error.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { textReply, useTestHosts } from '../support/ndfc.js';
import { useTempDir } from '../support/temp-dir.js';

// Issue 17 item 1: bot.toml [accounts] keeps `qq = "10000"` (a platform's default account) and
// also takes a table per account id, `[accounts."10001"]`, overriding that account's persona
// and groups.

const TOML = [
  '[bot]',
  'nickname = "月璃"',
  'aliases = ["小月"]',
  '[accounts]',
  'qq = "10000"',
  '[accounts."10001"]',
  'nickname = "星璃"',
  'personality = "热闹。"',
  'groups = { allow = [30001, "30002"], deny = ["30003"] }',
  '[accounts."10002"]',
  'aliases = []',
  '',
].join('\n');

const bot = () => BotConfigSchema.parse(parse(TOML));

describe('bot.toml [accounts] tables per account (issue 17)', () => {
  const tempDir = useTempDir();
  const start = useTestHosts();

  describe('the helpers', () => {
    it('[issue 17] the default account of a platform is its string entry; a table is never taken for an account id', () => {
      const config = bot();
      expect(defaultAccountOf(config, 'qq')).toBe('10000');
      expect(defaultAccountOf(config, '10001')).toBeUndefined();
      expect(defaultAccountOf(config, 'console')).toBeUndefined();
      expect(defaultAccountOf(BotConfigSchema.parse({ accounts: { qq: '' } }), 'qq')).toBeUndefined();
      expect(defaultAccounts(config)).toEqual({ qq: '10000' });
    });

    it('[issue 17] personaFor merges the account’s table over [bot]; no table or no account: [bot] as it is', () => {
      const config = bot();
      expect(personaFor(config, '10001')).toEqual({ ...config.bot, nickname: '星璃', personality: '热闹。' });
      expect(personaFor(config, '10002')).toEqual({ ...config.bot, aliases: [] });
      expect(personaFor(config, '10000')).toEqual(config.bot);
      expect(personaFor(config, null)).toEqual(config.bot);
      // A platform's string entry is no persona.
      expect(personaFor(config, 'qq')).toEqual(config.bot);
    });

    it('[issue 17] groupsFor gives the table’s lists, group ids as strings (integers taken as TOML writes them); accounts without groups are left out', () => {
      const config = bot();
      expect(groupsFor(config, '10001')).toEqual({ allow: ['30001', '30002'], deny: ['30003'] });
      expect(groupsFor(config, '10002')).toBeUndefined();
      expect(groupsFor(config, '10000')).toBeUndefined();
      expect(accountGroupsOf(config)).toEqual({ '10001': { allow: ['30001', '30002'], deny: ['30003'] } });
    });
  });

  describe('validation', () => {
    const byPath = (error: ConfigFileError) => [...error.issues].sort((first, second) => first.path.localeCompare(second.path));

    async function startError(toml: string): Promise<ConfigFileError> {
      const configDir = tempDir();
      writeFileSync(join(configDir, 'bot.toml'), toml);
      const host = createHost({ logger: createMemoryLogger().logger, configDir, dataDir: join(tempDir(), 'data'), database: 'memory', pluginRoots: [] });
      const error = await host.start().then(
        () => host.stop().then(() => undefined),
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ConfigFileError);
      expect((error as ConfigFileError).file).toBe(join(configDir, 'bot.toml'));
      return error as ConfigFileError;
    }

    it('[issue 17] an unknown key in an account’s table stops the start, naming accounts.<id>.<key> and the keys it takes', async () => {
      const error = await startError('[accounts."10001"]\nnick = "星璃"\ngroups = { allow = [], alow = [] }\n');
      expect(byPath(error)).toEqual([
        { path: 'accounts.10001.groups.alow', reason: 'unknown setting: this table takes allow and deny' },
        { path: 'accounts.10001.nick', reason: 'unknown setting: this table takes nickname, aliases, personality, identity, speaking_style, groups' },
      ]);
      expect(error.message).toContain('accounts.10001.nick: unknown setting');
    });

    it('[issue 17] a bad value in a table, or an entry that is neither an id nor a table, is named with its reason', async () => {
      const error = await startError('[accounts]\nqq = 10000\n[accounts."10001"]\nnickname = ""\naliases = "小星"\ngroups = { deny = [true] }\n');
      expect(byPath(error)).toEqual([
        { path: 'accounts.10001.aliases', reason: 'Invalid input: expected array, received string' },
        { path: 'accounts.10001.groups.deny.0', reason: 'boolean true is not a group id: write it as a string ("123456") or a whole number' },
        { path: 'accounts.10001.nickname', reason: 'must not be empty: leave it out to use [bot] nickname' },
        { path: 'accounts.qq', reason: expect.stringMatching(/^number 10000 is neither an account id \(a string such as "10000", for a platform\) nor an account's table/) },
      ]);
    });

    it('[issue 17] `moonglass check` (checkConfigFiles) reports a bad table as an invalid bot.toml naming the field, and takes a good one', async () => {
      const configDir = tempDir();
      writeFileSync(join(configDir, 'bot.toml'), '[accounts."10001"]\npersonality = "热闹。"\nspeaking = "快"\n');
      const bad = await checkConfigFiles(configDir);
      const report = bad.files.find((file) => file.file === join(configDir, 'bot.toml'));
      expect(report).toMatchObject({ state: 'invalid' });
      expect(report?.problem).toContain(join(configDir, 'bot.toml'));
      expect(report?.problem).toContain('accounts.10001.speaking: unknown setting: this table takes nickname, aliases, personality, identity, speaking_style, groups');

      writeFileSync(join(configDir, 'bot.toml'), TOML);
      const good = await checkConfigFiles(configDir);
      expect(good.files.find((file) => file.file === join(configDir, 'bot.toml'))).toMatchObject({ state: 'ok' });
    });

    it('[issue 17] an existing bot.toml with only `qq = "…"` reads as before', () => {
      expect(BotConfigSchema.parse(parse('[accounts]\nqq = "10000"\n')).accounts).toEqual({ qq: '10000' });
    });
  });

  it('[issue 17] the bot.toml written on first start explains both forms of [accounts], with an example table', async () => {
    const configDir = tempDir();
    const host = createHost({ logger: createMemoryLogger().logger, configDir, dataDir: join(tempDir(), 'data'), database: 'memory', pluginRoots: [] });
    await host.start();
    await host.stop();
    const text = readFileSync(join(configDir, 'bot.toml'), 'utf8');
    expect(text).toContain('# A string per platform names its default account there, e.g. qq = "10000"');
    expect(text).toContain('# A table per account id gives that account its own persona and groups');
    expect(text).toContain('#   [accounts."10001"]\n#   nickname = "星璃"');
    expect(text).toContain('#   groups = { allow = ["123456"], deny = [] }\naccounts = {}\n');
    // The example, uncommented in place of `accounts = {}`, is a valid bot.toml.
    const example = text
      .split('\n')
      .filter((line) => line.startsWith('#   '))
      .map((line) => line.slice(4))
      .join('\n');
    expect(BotConfigSchema.parse(parse(example)).accounts).toMatchObject({ qq: '10000', '10001': { nickname: '星璃', aliases: ['小星'] } });
  });

  it('[issue 17] a group video is watched on arrival when it names the stream’s own account (its nickname or alias), not another account’s', async () => {
    const test = await start({
      botConfig: { bot: { nickname: '月璃', aliases: [] }, accounts: { qq: '10000', '10001': { nickname: '星璃', aliases: ['小星'] } } },
      appConfig: { media: { video_watch_scope: 'related' } },
      script: textReply(''),
    });
    const message = async (id: string, account: string, content: string) => {
      const outcome = await test.host.receive({ platform: 'qq', message_id: id, chat_type: 'group', group: { id: `g-${id}`, name: '群' }, account, sender: { id: '20001', name: '阿明' }, content });
      if (outcome.status !== 'delivered') throw new Error(`not delivered: ${outcome.status}`);
      return outcome.message;
    };
    const media = test.host.media;
    expect(media.videosWatchedOnArrival(await message('v-1', '10001', '小星看这个'))).toBe(true);
    expect(media.videosWatchedOnArrival(await message('v-2', '10001', '月璃看这个'))).toBe(false);
    expect(media.videosWatchedOnArrival(await message('v-3', '10000', '月璃看这个'))).toBe(true);
    expect(media.videosWatchedOnArrival(await message('v-4', '10000', '星璃看这个'))).toBe(false);
  });
});
