import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/kernel/errors/config-file-error.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { loadMcpConfig } from '../../src/mcp/load-mcp-config.js';
import { MCP_EXAMPLE_BEGIN, MCP_EXAMPLE_END } from '../../src/mcp/mcp-config-default-text.js';
import { McpServerConfigSchema, McpStdioServerConfigSchema, McpToolConfigSchema } from '../../src/mcp/mcp-config.js';
import { describeSchema } from '../../src/kernel/config/zod-introspection.js';
import { useTempDir } from '../support/temp-dir.js';

function loadError(configDir: string): ConfigFileError {
  try {
    loadMcpConfig(configDir, createMemoryLogger().logger);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return error as ConfigFileError;
  }
  throw new Error('expected loadMcpConfig to throw');
}

describe(loadMcpConfig, () => {
  const tempDir = useTempDir();

  it('gives no servers when mcp.toml is absent and writes a commented default file', () => {
    const configDir = join(tempDir(), 'config');
    const { logger, records } = createMemoryLogger();
    expect(loadMcpConfig(configDir, logger)).toEqual({ servers: {} });
    const text = readFileSync(join(configDir, 'mcp.toml'), 'utf8');
    expect(text.split('\n').every((line) => line === '' || line.startsWith('#'))).toBe(true);
    expect(JSON.parse(JSON.stringify(parse(text)))).toEqual({});
    for (const field of ['transport', 'command', 'args', 'env', 'cwd', 'url', 'enabled', 'request_timeout_s', 'min', 'max', 'readonly_confirmed', 'expose', 'daily_quota']) {
      expect(text).toMatch(new RegExp(`^# {3}${field} +\\S`, 'm'));
    }
    expect(text).toContain('# [servers.<name>.protocol_versions]');
    expect(text).toContain('# [servers.<name>.tools.<tool>]');
    // The comments are the schema's own descriptions.
    expect(text).toContain(describeSchema(McpToolConfigSchema.shape.readonly_confirmed));
    expect(text).toContain(describeSchema(McpStdioServerConfigSchema.shape.protocol_versions));
    expect(records.some((record) => record.msg === 'wrote the default mcp.toml (no MCP servers)')).toBe(true);
    expect(loadMcpConfig(configDir, logger)).toEqual({ servers: {} });
  });

  it('has an example that is valid once uncommented', () => {
    const configDir = tempDir();
    loadMcpConfig(configDir, createMemoryLogger().logger);
    const text = readFileSync(join(configDir, 'mcp.toml'), 'utf8');
    const example = text.slice(text.indexOf(MCP_EXAMPLE_BEGIN) + MCP_EXAMPLE_BEGIN.length, text.indexOf(MCP_EXAMPLE_END));
    writeFileSync(join(configDir, 'mcp.toml'), example.replace(/^# ?/gm, ''));
    const { logger, records } = createMemoryLogger();
    const config = loadMcpConfig(configDir, logger);
    expect(config.servers['memory']).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: 'data/memory.jsonl' },
      enabled: true,
      protocol_versions: { min: '2024-11-05', max: '2025-11-25' },
      request_timeout_s: 30,
      tools: { read_graph: { readonly_confirmed: true, expose: true, daily_quota: 200 }, search_nodes: { readonly_confirmed: true, expose: false } },
    });
    expect(config.servers['search']).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:8931/mcp', request_timeout_s: 20, protocol_versions: { min: '2025-03-26' } });
    expect(records.filter((record) => record.level === 'warn')).toEqual([]);
  });

  it('names the file and the dotted path of every bad field', () => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'mcp.toml'),
      [
        '[servers.search]',
        'transport = "http"',
        'url = "ftp://example.com/mcp"',
        '[servers.search.protocol_versions]',
        'min = "2025-11-25"',
        'max = "2024-11-05"',
        '[servers.search.tools.web_search]',
        'daily_quota = -1',
        '[servers.local]',
        'transport = "pipe"',
        '[servers.files]',
        'transport = "stdio"',
        'args = "--root /"',
      ].join('\n'),
    );
    const error = loadError(configDir);
    expect(error.file).toBe(join(configDir, 'mcp.toml'));
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      'servers.files.args',
      'servers.files.command',
      'servers.local.transport',
      'servers.search.protocol_versions.max',
      'servers.search.tools.web_search.daily_quota',
      'servers.search.url',
    ]);
    expect(error.message).toContain(join(configDir, 'mcp.toml'));
    expect(error.message).toContain('servers.search.url: must be an http:// or https:// URL');
    expect(error.message).toContain('servers.local.transport: must be "stdio" or "http"');
  });

  it('names the line of a TOML syntax error without quoting it', () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'mcp.toml'), '[servers.search]\nenv = { TOKEN = "secret-93bd0c7e11" \n');
    const error = loadError(configDir);
    expect(error.issues[0]?.reason).toMatch(/^is not valid TOML at line \d+, column \d+/);
    expect(error.cause).toBeUndefined();
  });

  it('fills the defaults and warns about unknown keys by their dotted path', () => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'mcp.toml'),
      [
        'server = 1',
        '[servers.search]',
        'transport = "http"',
        'url = "https://example.com/mcp"',
        'command = "not for http"',
        '[servers.search.tools.web_search]',
        'readonly_confirmed = true',
        'daily_qouta = 5',
      ].join('\n'),
    );
    const { logger, records } = createMemoryLogger();
    const config = loadMcpConfig(configDir, logger);
    expect(config.servers['search']).toEqual(
      McpServerConfigSchema.parse({ transport: 'http', url: 'https://example.com/mcp', tools: { web_search: { readonly_confirmed: true } } }),
    );
    expect(config.servers['search']?.tools['web_search']).toEqual({ readonly_confirmed: true, expose: true });
    expect(records.find((record) => record.level === 'warn')).toMatchObject({
      keys: ['server', 'servers.search.command', 'servers.search.tools.web_search.daily_qouta'],
    });
  });
});
