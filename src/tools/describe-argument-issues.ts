import type * as z from 'zod';

/** At most this many problems are spelled out; the rest are counted. */
const MAX_LISTED_ISSUES = 8;

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: '字符串',
  number: '数字',
  int: '整数',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
  null: '空值',
  tuple: '数组',
  record: '对象',
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? expected;
}

function receivedTypeName(input: unknown): string {
  if (input === null) return '空值';
  if (Array.isArray(input)) return '数组';
  if (typeof input === 'number') return Number.isInteger(input) ? '整数' : '小数';
  return typeName(typeof input);
}

function lengthNote(input: unknown): string {
  if (typeof input === 'string') return `，收到 ${input.length} 个`;
  if (Array.isArray(input)) return `，收到 ${input.length} 项`;
  return '';
}

function describeTooBig(issue: z.core.$ZodIssueTooBig): string {
  const maximum = String(issue.maximum);
  if (issue.origin === 'string') {
    return (issue.exact ? `长度必须为 ${maximum} 个字符` : `长度不能超过 ${maximum} 个字符`) + lengthNote(issue.input);
  }
  if (issue.origin === 'array' || issue.origin === 'set') return (issue.exact ? `必须正好 ${maximum} 项` : `最多 ${maximum} 项`) + lengthNote(issue.input);
  if (issue.origin === 'object') return `最多 ${maximum} 个字段`;
  return issue.inclusive === false ? `必须小于 ${maximum}` : `不能大于 ${maximum}`;
}

function describeTooSmall(issue: z.core.$ZodIssueTooSmall): string {
  const minimum = String(issue.minimum);
  if (issue.origin === 'string') {
    if (issue.exact) return `长度必须为 ${minimum} 个字符` + lengthNote(issue.input);
    if (minimum === '1' && issue.inclusive !== false) return '不能为空';
    return `长度至少 ${minimum} 个字符` + lengthNote(issue.input);
  }
  if (issue.origin === 'array' || issue.origin === 'set') return (issue.exact ? `必须正好 ${minimum} 项` : `至少 ${minimum} 项`) + lengthNote(issue.input);
  if (issue.origin === 'object') return `至少 ${minimum} 个字段`;
  return issue.inclusive === false ? `必须大于 ${minimum}` : `不能小于 ${minimum}`;
}

/** The problem of one issue, without its path. */
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? '缺少必填字段' : `应为${typeName(issue.expected)}，收到${receivedTypeName(issue.input)}`;
    case 'too_big':
      return describeTooBig(issue);
    case 'too_small':
      return describeTooSmall(issue);
    case 'invalid_value':
      return issue.values.length === 1
        ? `只能是 ${JSON.stringify(issue.values[0])}`
        : `只能是 ${issue.values.map((value) => JSON.stringify(value)).join('、')} 之一`;
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern !== undefined ? `须匹配正则 ${issue.pattern}` : `格式应为 ${issue.format}`;
    case 'not_multiple_of':
      return `必须是 ${issue.divisor} 的倍数`;
    case 'invalid_union':
      return '不符合允许的任何一种形式';
    case 'invalid_key':
      return '字段名不合法';
    case 'invalid_element':
      return '元素不合法';
    case 'unrecognized_keys':
      return '未知字段';
    default:
      return issue.message;
  }
}

function label(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '参数' : `参数 ${path.map(String).join('.')}`;
}

/**
 * Zod issues as one line for the model, each problem named by the field's dotted path:
 * `参数 name：长度不能超过 20 个字符，收到 31 个；参数 extra：未知字段`. An unknown key is
 * named by the key itself; a problem with the whole object reads `参数：…`.
 */
export function describeArgumentIssues(issues: readonly z.core.$ZodIssue[]): string {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) lines.push(`${label([...issue.path, key])}：未知字段`);
    } else {
      lines.push(`${label(issue.path)}：${describeIssue(issue)}`);
    }
  }
  const listed = lines.slice(0, MAX_LISTED_ISSUES);
  if (lines.length > listed.length) listed.push(`另有 ${lines.length - listed.length} 处问题`);
  return listed.join('；');
}
