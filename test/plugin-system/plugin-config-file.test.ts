import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { pluginConfigFile } from '../../src/plugin-system/config/plugin-config-file.js';
import { pluginPackageFolders } from '../../src/plugin-system/discovery/plugin-packages.js';
import { useTempDir } from '../support/temp-dir.js';
import { pluginManifest, writeFiles } from './support/plugin-packages.js';

describe('where a plugin keeps its config file', () => {
  const tempDir = useTempDir();

  it('[issue 16] beside the manifest for a writable folder outside node_modules, else config/plugins/<id>.toml', () => {
    const dir = tempDir();
    const folder = join(dir, 'plugins', 'dice');
    const packaged = join(dir, 'node_modules', '@acme', 'moonglass-plugin-dice');
    const installedBuiltIn = join(dir, 'node_modules', 'moonglass', 'dist', 'plugins', 'built_in', 'neo_default_chatter');
    for (const path of [folder, packaged, installedBuiltIn]) mkdirSync(path, { recursive: true });
    const configDir = join(dir, 'config');
    expect(pluginConfigFile(folder, 'example.dice', configDir)).toBe(join(folder, 'config.toml'));
    expect(pluginConfigFile(packaged, 'acme.dice', configDir)).toBe(join(configDir, 'plugins', 'acme.dice.toml'));
    expect(pluginConfigFile(installedBuiltIn, 'neo_default_chatter', configDir)).toBe(join(configDir, 'plugins', 'neo_default_chatter.toml'));
  });
});

describe('the plugin packages of a bot project', () => {
  const tempDir = useTempDir();
  const plugin = (name: string, id: string) => ({ 'package.json': JSON.stringify({ name, version: '1.0.0', keywords: ['chat', 'moonglass-plugin'] }), '_manifest.json': pluginManifest(id) });

  it('[issue 16] are the dependencies in package.json, sorted, installed in node_modules, with the moonglass-plugin keyword and a _manifest.json', () => {
    const project = tempDir();
    const dependencies = { zeta: '1.0.0', '@acme/moonglass-plugin-dice': '1.0.0', 'plain-lib': '1.0.0', 'keyword-only': '1.0.0', 'not-installed': '1.0.0', alpha: '1.0.0' };
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bot', dependencies, devDependencies: { 'dev-plugin': '1.0.0' } }));
    const modules = join(project, 'node_modules');
    writeFiles(join(modules, 'zeta'), plugin('zeta', 'demo.zeta'));
    writeFiles(join(modules, 'alpha'), plugin('alpha', 'demo.alpha'));
    writeFiles(join(modules, '@acme', 'moonglass-plugin-dice'), plugin('@acme/moonglass-plugin-dice', 'acme.dice'));
    writeFiles(join(modules, 'plain-lib'), { 'package.json': '{"name":"plain-lib","version":"1.0.0"}', '_manifest.json': pluginManifest('demo.plain') });
    writeFiles(join(modules, 'keyword-only'), { 'package.json': '{"name":"keyword-only","version":"1.0.0","keywords":["moonglass-plugin"]}' });
    writeFiles(join(modules, 'dev-plugin'), plugin('dev-plugin', 'demo.dev'));
    writeFiles(join(modules, 'stray'), plugin('stray', 'demo.stray'));
    const { logger, records } = createMemoryLogger();

    expect(pluginPackageFolders(project, logger)).toEqual([join(modules, '@acme', 'moonglass-plugin-dice'), join(modules, 'alpha'), join(modules, 'zeta')]);
    expect(records.filter((record) => record.level === 'warn')).toEqual([expect.objectContaining({ package: 'keyword-only' })]);
  });

  it('[issue 16] a folder without package.json has none; an unreadable package.json is named in a warning', () => {
    const { logger, records } = createMemoryLogger();
    expect(pluginPackageFolders(tempDir(), logger)).toEqual([]);
    const broken = tempDir();
    writeFileSync(join(broken, 'package.json'), '{ not json');
    expect(pluginPackageFolders(broken, logger)).toEqual([]);
    expect(records).toEqual([expect.objectContaining({ level: 'warn', file: join(broken, 'package.json') })]);
  });
});
