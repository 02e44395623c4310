import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as moonglass from 'moonglass';
import * as testing from 'moonglass/testing';
import type { EventParams, OnNoticePayload, OnRequestPayload, PlatformNotice } from 'moonglass';

describe('the public API', () => {
  it('exports exactly these runtime names from "moonglass"', () => {
    expect(Object.keys(moonglass).sort()).toEqual(
      [
        'AppConfigSchema',
        'BaseEventHandler',
        'BaseCommand',
        'BindingOverrideError',
        'COMPONENT_KINDS',
        'ComponentDeclarationError',
        'ComponentKind',
        'ComponentRegistry',
        'ComponentResolutionError',
        'ConfigFileError',
        'DEFAULT_EVENT_HANDLER_TIMEOUT_SECONDS',
        'DEFAULT_TOOL_TIMEOUT_MS',
        'ERROR_CODES',
        'EventBus',
        'EventDecision',
        'EventPublishError',
        'EventType',
        'HOST_VERSION',
        'HourRangeSchema',
        'Host',
        'HostNotRunningError',
        'HostStateError',
        'InvalidArgumentError',
        'MoonglassError',
        'PluginScope',
        'ScopeInactiveError',
        'SideEffect',
        'SignatureCollisionError',
        'SignatureError',
        'TOKENS',
        'ToolDeclarationError',
        'action',
        'chatter',
        'command',
        'commandUsage',
        'createHost',
        'createLogger',
        'defineCommand',
        'levelAllows',
        'withinHours',
        'levelOf',
        'parseCommandInput',
        'eventHandler',
        'formatSignature',
        'getService',
        'inject',
        'injectable',
        'optional',
        'overlay',
        'serviceToken',
        'injectService',
        'isSignature',
        'parseSignature',
        'pluginLogger',
        'publishEvent',
        'service',
        'setEventHandlerTimeout',
        'systemClock',
        'systemRandom',
        'machineTimeZone',
        'resolveTimeZone',
        'zonedTime',
        'tool',
        'ToolPlugin',
        'PluginConfig',
        'secret',
        'secretFields',
        'savePluginConfig',
        'ToolExecutionResult',
        'ToolRegistry',
        'ToolResultError',
        'ToolRegistrationError',
        'ManifestError',
        'PluginEntryError',
        'PluginNotReadyError',
        'PluginConfigError',
        'defaultPluginRoots',
        'StorageError',
        'DataFolderLockedError',
        'AdapterError',
        'McpUnavailableError',
        'ModelRequestError',
        'LlmRequestFailedError',
        'LlmTaskError',
        'BaseChatter',
        'BaseAction',
        'Wait',
        'Success',
        'Failure',
        'Stop',
        'WaitResumeEvent',
        'PromptManager',
        'PromptError',
      ].sort(),
    );
  });

  it('lists the platform events in EventType, typed by the exported notice and request payloads', () => {
    expect([moonglass.EventType.ON_NOTICE, moonglass.EventType.ON_REQUEST]).toEqual(['on_notice', 'on_request']);
    const notice: EventParams<'on_notice'> = {
      platform: 'qq',
      self_id: '10000',
      time: 1,
      stream_id: null,
      adapter_signature: 'x',
      notice: { notice_type: 'friend_add', user_id: '20001' } satisfies PlatformNotice,
    } satisfies OnNoticePayload;
    const request: EventParams<'on_request'> = { ...notice, request: { request_type: 'friend', user_id: '20001', comment: '', flag: 'f' } } satisfies OnRequestPayload;
    expect([notice.self_id, request.request.flag]).toEqual(['10000', 'f']);
  });

  it('exports the test kit from "moonglass/testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(['FakeAdapter', 'ManualClock', 'ScriptedModel', 'SeededRandom', 'SequenceRandom', 'createMemoryLogger', 'createTestHost', 'flushMicrotasks']);
  });

  it('lists every exported error class in the error catalogue, and the error reference and both troubleshooting guides document every code', () => {
    const errorClasses = Object.entries(moonglass).filter(
      ([name, value]) => typeof value === 'function' && name.endsWith('Error') && name !== 'MoonglassError',
    );
    expect(errorClasses.length).toBeGreaterThan(10);
    const codes = new Set(Object.keys(moonglass.ERROR_CODES));
    const pages = ['../docs/reference/errors.md', '../docs/guide/troubleshooting.md', '../docs/en/guide/troubleshooting.md'].map((page) => [page, readFileSync(new URL(page, import.meta.url), 'utf8')] as const);
    for (const [name, ErrorClass] of errorClasses) {
      const source = ErrorClass.toString();
      const code = /["'](MG_[A-Z_]+)["']/.exec(source)?.[1];
      expect(code, `${name} names its code`).toBeDefined();
      expect(codes.has(code!), `${name}'s code ${code} is in ERROR_CODES`).toBe(true);
      expect((ErrorClass as { prototype: object }).prototype, `${name} extends MoonglassError`).toBeInstanceOf(moonglass.MoonglassError);
    }
    for (const code of codes) for (const [page, text] of pages) expect(text, `${page} documents ${code}`).toMatch(new RegExp(`^## \`?${code}\`? \\{#${code.toLowerCase().replaceAll('_', '-')}\\}$`, 'm'));
  });

  it('recognises moonglass errors across package copies by the Symbol.for marker', () => {
    const foreign = { [Symbol.for('moonglass.error')]: true, code: 'MG_SIGNATURE_INVALID' };
    expect(moonglass.MoonglassError.isInstance(foreign)).toBe(true);
    expect(moonglass.MoonglassError.hasCode(foreign, 'MG_SIGNATURE_INVALID')).toBe(true);
    expect(moonglass.MoonglassError.isInstance(new Error('plain'))).toBe(false);
  });
});

describe('moonglass/ndfc', () => {
  it('exports the NDFC event names and PreprocessDecision, nothing else at run time', async () => {
    const ndfc = await import('moonglass/ndfc');
    expect(Object.keys(ndfc).sort()).toEqual(['NdfcEvent', 'PreprocessDecision']);
    expect(Object.values(ndfc.NdfcEvent)).toHaveLength(17);
  });
});
