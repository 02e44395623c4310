// Rendering a forward tree as text the model reads, and cutting it into pages.
import type { ForwardMedia, ForwardNode, ForwardTree } from './forward-tree.js';

/** The document as pieces: plain text, or a media item whose text depends on its recognition. */
export type Piece = string | ForwardMedia;

/** What a media item shows now: the frozen text, else its description, else the placeholder. */
export function mediaText(media: ForwardMedia): string {
  if (media.shown !== undefined) return media.shown;
  if (typeof media.result === 'string') return media.result;
  return media.kind === 'image' ? '[图片]' : '[视频]';
}

function pieceText(piece: Piece): string {
  return typeof piece === 'string' ? piece : mediaText(piece);
}

/** One node as pieces: `昵称: 内容`, continuation lines indented. */
function nodePieces(node: ForwardNode): Piece[] {
  const pieces: Piece[] = [`${node.sender}: `];
  let empty = true;
  for (const part of node.parts) {
    empty = false;
    if (part.type === 'text') pieces.push(part.text.replace(/\r\n?/g, '\n').replace(/\n/g, '\n  '));
    else if (part.type === 'media') pieces.push(part.media);
    else if (part.layer > 0) pieces.push(`[聊天记录，见第 ${part.layer} 层]`);
    else pieces.push(`[聊天记录（${part.note ?? '未展开'}）]`);
  }
  if (empty) pieces.push('（空消息）');
  pieces.push('\n');
  return pieces;
}

/** The whole tree, layer by layer; deterministic for a tree (only media texts change). */
export function documentPieces(tree: ForwardTree): Piece[] {
  const pieces: Piece[] = [];
  for (const layer of tree.layers) {
    const origin = layer.parent === undefined ? '' : `，${layer.parent.sender} 在第 ${layer.parent.layer} 层转发`;
    if (layer.failure !== undefined) {
      pieces.push(`【第 ${layer.number} 层${origin}】（没能读取这一层：${layer.failure}）\n`);
      continue;
    }
    pieces.push(`【第 ${layer.number} 层${origin}，${layer.nodes.length} 条】\n`);
    for (const node of layer.nodes) pieces.push(...nodePieces(node));
    if (layer.omitted > 0) pieces.push(`（消息过多，这一层另有 ${layer.omitted} 条未展开）\n`);
  }
  return pieces;
}

/** The current length of the rendered document. */
export function documentLength(pieces: readonly Piece[]): number {
  return pieces.reduce((sum, piece) => sum + pieceText(piece).length, 0);
}

/**
 * The media items not yet frozen whose text may fall in `[start, start + size)`, judged with
 * their current texts (a description only makes an item longer, so after waiting the page
 * holds a subset of these).
 */
export function mediaInWindow(pieces: readonly Piece[], start: number, size: number): ForwardMedia[] {
  const found: ForwardMedia[] = [];
  let position = 0;
  for (const piece of pieces) {
    const length = pieceText(piece).length;
    if (position >= start + size) break;
    if (typeof piece !== 'string' && piece.shown === undefined && position + length > start && !found.includes(piece)) found.push(piece);
    position += length;
  }
  return found;
}

/** Fixes the text of every media item that starts before `limit` at what it shows now. */
export function freezeUpTo(pieces: readonly Piece[], limit: number): void {
  let position = 0;
  for (const piece of pieces) {
    if (position >= limit) break;
    const current = pieceText(piece);
    if (typeof piece !== 'string' && piece.shown === undefined) piece.shown = current;
    position += current.length;
  }
}

export interface Page {
  text: string;
  /** Where the page starts (the offset asked for, moved off a surrogate pair's second half). */
  start: number;
  /** Where the next page starts; undefined at the end. */
  nextOffset: number | undefined;
  /** The document's length now (it may still grow while recognitions finish). */
  total: number;
}

/**
 * Cuts the page at `offset`: at most `size` characters, ending at a line break when one is
 * in the last fifth, never inside a surrogate pair. Every media item shown on or before this
 * page is frozen at its current text, so the offsets of later pages stay valid.
 */
export function cutPage(pieces: readonly Piece[], offset: number, size: number): Page {
  freezeUpTo(pieces, offset + size);
  const document = pieces.map(pieceText).join('');
  let start = Math.min(offset, document.length);
  if (start > 0 && isLowSurrogate(document.charCodeAt(start))) start -= 1;
  let end = Math.min(start + size, document.length);
  if (end < document.length) {
    const lineBreak = document.lastIndexOf('\n', end - 1);
    if (lineBreak >= start + Math.floor(size * 0.8)) end = lineBreak + 1;
    else if (isLowSurrogate(document.charCodeAt(end))) end -= 1;
  }
  return { text: document.slice(start, end), start, nextOffset: end < document.length ? end : undefined, total: document.length };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
