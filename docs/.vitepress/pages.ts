// Every page of the documentation site, in reading order. The site's navigation and sidebars
// are built from this list, and `npm run docs:check` and the site test check that each page
// exists in each language and that no guide page is left out of it.

export type Locale = 'zh' | 'en';

export interface PageLink {
  /** The page's path under docs/ without `.md`; a guide's is the same in both locales (`guide/models`). */
  path: string;
  title: Record<Locale, string>;
}

export interface PageGroup {
  title: Record<Locale, string>;
  pages: PageLink[];
  /** Guides exist once per locale (docs/guide/x.md and docs/en/guide/x.md); references and contributor pages once, in English. */
  localized: boolean;
}

function page(path: string, zh: string, en: string): PageLink {
  return { path, title: { zh, en } };
}

export const GUIDE_GROUPS: PageGroup[] = [
  {
    title: { zh: '开始使用', en: 'Get started' },
    localized: true,
    pages: [
      page('guide/getting-started', '安装与第一次运行', 'Install and first run'),
      page('guide/connect-qq', '连接 QQ', 'Connect QQ'),
      page('guide/accounts', '多个账号', 'Several accounts'),
      page('guide/models', '模型与提供方', 'Models and providers'),
      page('guide/deploy', '部署', 'Deploy'),
    ],
  },
  {
    title: { zh: '运营机器人', en: 'Run the bot' },
    localized: true,
    pages: [
      page('guide/commands', '命令、权限与规则', 'Commands, permissions and rules'),
      page('guide/console', '网页控制台', 'The web console'),
      page('guide/troubleshooting', '排查问题', 'Troubleshooting'),
    ],
  },
  {
    title: { zh: '编写插件', en: 'Write plugins' },
    localized: true,
    pages: [
      page('guide/tool-plugin', '编写工具插件', 'Write a tool plugin'),
      page('guide/plugin-config', '插件配置与密钥', 'Plugin config and secrets'),
      page('guide/testing', '测试插件', 'Test a plugin'),
      page('guide/plugin-packages', '插件包与发布', 'Plugin packages and publishing'),
    ],
  },
  {
    title: { zh: '深入扩展', en: 'Go deeper' },
    localized: true,
    pages: [
      page('guide/events', '事件总线', 'The event bus'),
      page('guide/extending-ndfc', '扩展默认聊天器', 'Extend the default chatter'),
      page('guide/media', '图片、语音与视频', 'Images, voice and video'),
      page('guide/mcp', 'MCP 工具', 'MCP tools'),
    ],
  },
];

export const REFERENCE_GROUP: PageGroup = {
  title: { zh: '参考', en: 'Reference' },
  localized: false,
  pages: [
    page('reference/config', '配置文件', 'Config files'),
    page('reference/events', '事件', 'Events'),
    page('reference/errors', '错误码', 'Error codes'),
    page('reference/cli', '命令行', 'Command line'),
    page('reference/api/index', 'API', 'API'),
  ],
};

export const CONTRIBUTING_GROUP: PageGroup = {
  title: { zh: '参与开发', en: 'Contributing' },
  localized: false,
  pages: [
    page('contributing/architecture', '架构', 'Architecture'),
    page('contributing/departures', '与设计文档的差异', 'Departures from the design'),
    page('contributing/benchmarks', '基准测试', 'Benchmarks'),
    page('contributing/tests', '测试', 'Tests'),
  ],
};

export const ALL_GROUPS: PageGroup[] = [...GUIDE_GROUPS, REFERENCE_GROUP, CONTRIBUTING_GROUP];

/** The file under docs/ of a page in a locale: `guide/models.md`, `en/guide/models.md`, `reference/config.md`. */
export function pageFile(group: PageGroup, link: PageLink, locale: Locale): string {
  return `${group.localized && locale === 'en' ? 'en/' : ''}${link.path}.md`;
}

/** The page's URL in the site (clean URLs): `/guide/models`, `/en/guide/models`, `/reference/api/`. */
export function pageUrl(group: PageGroup, link: PageLink, locale: Locale): string {
  const path = `/${group.localized && locale === 'en' ? 'en/' : ''}${link.path}`;
  return path.endsWith('/index') ? path.slice(0, -'index'.length) : path;
}

/** Every page file of the site, each once (home pages included). */
export function allPageFiles(): string[] {
  const files = new Set<string>(['index.md', 'en/index.md']);
  for (const group of ALL_GROUPS) for (const link of group.pages) for (const locale of ['zh', 'en'] as const) files.add(pageFile(group, link, locale));
  return [...files];
}
