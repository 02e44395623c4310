import { readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OutboundMedia } from 'moonglass';

/**
 * A local file up to this size goes inline (`base64://`): the QQ client may run where the
 * bot's paths do not exist (NapCat in its own Docker container). A larger one goes as a
 * `file:///` URL, which only a client on the same machine (or with the data folder mounted
 * at the same path) can read.
 */
export const INLINE_MAX_BYTES = 1024 * 1024;

const LABEL: Readonly<Record<OutboundMedia['kind'], string>> = { image: '图片', record: '语音', video: '视频' };

/** The file types each kind may be, so a local path cannot send the database or a config file. */
const EXTENSIONS: Readonly<Record<OutboundMedia['kind'], readonly string[]>> = {
  image: ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp'],
  record: ['.mp3', '.wav', '.amr', '.silk', '.ogg', '.opus', '.m4a', '.aac', '.flac'],
  video: ['.mp4', '.mov', '.m4v', '.webm', '.mkv', '.avi', '.flv'],
};

export type MediaFileResult = { readonly ok: true; readonly file: string } | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): MediaFileResult => ({ ok: false, reason });

/**
 * What the model named as `file`, checked and turned into OneBot's `file` field: an
 * `http(s)://` URL as it is; a path inside the bot's data folder (`dataDir`; relative to it,
 * or absolute inside it) read and inlined as `base64://` up to `INLINE_MAX_BYTES`, else as a
 * `file:///` URL. Refused, with a reason the model can act on: other schemes, `..`, a path
 * (or a symlink's target) outside the data folder, a file type that is not the kind's, a
 * missing or empty file.
 *
 * Synchronous on purpose: a stat and at most 1 MiB read take a millisecond, and the action then
 * runs on the host's clock alone (a test's manual clock cannot race ahead of pending file I/O).
 */
export function resolveMediaFile(kind: OutboundMedia['kind'], input: string, dataDir: string): MediaFileResult {
  const named = input.trim();
  if (named === '') return refuse('file 为空：请给出 http(s) 链接，或数据目录里的相对路径（如 media/cat.png）');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(named)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return checkedUrl(named);
  if (scheme !== undefined && !isAbsolute(named)) {
    return refuse(`不支持「${scheme}:」地址：file 只能是 http(s) 链接，或机器人数据目录里的相对路径（如 media/cat.png）`);
  }
  if (named.split(/[\\/]/).includes('..')) return refuse(`路径不能包含「..」：${named}`);
  const root = resolve(dataDir);
  const path = resolve(root, named);
  if (!isInside(root, path)) return refuse(`只能发送机器人数据目录里的文件，请写相对于数据目录的路径（如 media/cat.png），不能用 ${named}`);
  const extension = extname(path).toLowerCase();
  if (!EXTENSIONS[kind].includes(extension)) {
    return refuse(`${named} 不是${LABEL[kind]}文件（${LABEL[kind]}支持 ${EXTENSIONS[kind].join(' ')}）`);
  }
  try {
    const real = realpathSync(path);
    // A symlink inside the data folder must not lead out of it.
    if (!isInside(realpathSync(root), real)) return refuse(`只能发送机器人数据目录里的文件：${named} 指向数据目录之外`);
    const info = statSync(real);
    if (!info.isFile()) return refuse(`${named} 不是文件`);
    if (info.size === 0) return refuse(`文件是空的：${named}`);
    if (info.size > INLINE_MAX_BYTES) return { ok: true, file: pathToFileURL(real).href };
    return { ok: true, file: `base64://${readFileSync(real).toString('base64')}` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'ENOENT' || code === 'ENOTDIR' ? `文件不存在：${named}（数据目录里没有这个文件）` : `读不了 ${named}：${String(code ?? error)}`);
  }
}

function checkedUrl(text: string): MediaFileResult {
  try {
    const url = new URL(text);
    if (url.hostname === '') return refuse(`链接没有主机名：${text}`);
    return { ok: true, file: url.href };
  } catch {
    return refuse(`不是有效的链接：${text}`);
  }
}

function isInside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest !== '' && rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}
