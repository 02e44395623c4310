/**
 * What people call the platforms messages come from (the stored platform names are
 * adapters' ids: `console`, `qq` from the OneBot adapter, `sandbox` from the web console).
 * A Map, so a platform named `constructor` is simply unknown.
 */
const DISPLAY_NAMES: ReadonlyMap<string, string> = new Map([
  ['console', '终端'],
  ['qq', 'QQ'],
  ['onebot', 'QQ'],
  ['onebot_v11', 'QQ'],
  ['sandbox', '网页控制台的沙盒'],
  ['wechat', '微信'],
  ['telegram', 'Telegram'],
  ['discord', 'Discord'],
  ['kook', 'KOOK'],
]);

/** The platform as the model reads it: `QQ`, `终端` …; an unknown platform keeps its own name. */
export function platformDisplayName(platform: string): string {
  return DISPLAY_NAMES.get(platform.toLowerCase()) ?? platform;
}
