import { describe, expect, it } from 'vitest';
import { MoonglassError } from '../../src/kernel/errors/moonglass-error.js';
import { ToolResultError } from '../../src/tools/errors/tool-result-error.js';
import { ToolExecutionResult } from '../../src/tools/tool-execution-result.js';

describe('ToolExecutionResult', () => {
  it('[T-09] refuses a failure without errorMessage, with the seed message and MG_TOOL_RESULT', () => {
    const build = () => new ToolExecutionResult({ toolName: 'hello_yueli', success: false });
    expect(build).toThrow(ToolResultError);
    expect(build).toThrow('工具 hello_yueli 执行失败必须给出失败原因');
    try {
      build();
    } catch (error) {
      expect(MoonglassError.hasCode(error, 'MG_TOOL_RESULT')).toBe(true);
      expect(error).toMatchObject({ toolName: 'hello_yueli', field: 'errorMessage' });
    }
  });

  it('[T-09] refuses a failure whose errorMessage is empty or blank, also through fail()', () => {
    expect(() => new ToolExecutionResult({ toolName: 't', success: false, errorMessage: '' })).toThrow(ToolResultError);
    expect(() => new ToolExecutionResult({ toolName: 't', success: false, errorMessage: ' \n\t' })).toThrow(ToolResultError);
    expect(() => ToolExecutionResult.fail('t', '   ')).toThrow('工具 t 执行失败必须给出失败原因');
    expect(() => new ToolExecutionResult({ toolName: 't', success: false, errorMessage: 42 as never })).toThrow(ToolResultError);
  });

  it('fills observation, errorMessage and metadata with empty defaults', () => {
    const result = new ToolExecutionResult({ toolName: 't', success: true });
    expect(result).toMatchObject({ toolName: 't', success: true, observation: '', errorMessage: '', metadata: {} });
  });

  it('builds a success with ok() and a failure with fail(), keeping metadata', () => {
    expect(ToolExecutionResult.ok('t', '找到 3 条', { count: 3 })).toMatchObject({ success: true, observation: '找到 3 条', metadata: { count: 3 } });
    expect(ToolExecutionResult.fail('t', '没有找到', { query: 'x' })).toMatchObject({ success: false, errorMessage: '没有找到', metadata: { query: 'x' } });
    expect(ToolExecutionResult.ok('t', 'x').metadata).toEqual({});
  });

  it('keeps its own frozen copy of metadata', () => {
    const metadata: Record<string, unknown> = { offset: 1 };
    const result = ToolExecutionResult.ok('t', 'x', metadata);
    metadata['offset'] = 2;
    expect(result.metadata).toEqual({ offset: 1 });
    expect(Object.isFrozen(result.metadata)).toBe(true);
  });

  it('recognises results by a shared marker, not lookalike objects', () => {
    expect(ToolExecutionResult.isInstance(ToolExecutionResult.ok('t', 'x'))).toBe(true);
    expect(ToolExecutionResult.isInstance({ toolName: 't', success: true, observation: 'x', errorMessage: '', metadata: {} })).toBe(false);
    expect(ToolExecutionResult.isInstance(null)).toBe(false);
    expect(ToolExecutionResult.isInstance('x')).toBe(false);
  });
});
