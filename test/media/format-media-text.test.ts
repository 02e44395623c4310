import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../src/media/detect-image-type.js';
import { cleanDescription, isOverLengthVideoText, overLengthVideoText } from '../../src/media/format-media-text.js';
import { buildJpegMagic, buildPng } from './support/build-png.js';

describe(overLengthVideoText, () => {
  it('[T-32] says seconds under a minute and rounded minutes from 60 s on', () => {
    expect(overLengthVideoText(42.4)).toBe('[视频：约 42 秒，超出观看时长上限，未看]');
    expect(overLengthVideoText(60)).toBe('[视频：约 1 分钟，超出观看时长上限，未看]');
    expect(overLengthVideoText(150)).toBe('[视频：约 3 分钟，超出观看时长上限，未看]');
    expect(overLengthVideoText(600)).toBe('[视频：约 10 分钟，超出观看时长上限，未看]');
    expect(isOverLengthVideoText(overLengthVideoText(600))).toBe(true);
    expect(isOverLengthVideoText('[视频：一段舞蹈]')).toBe(false);
  });
});

describe(cleanDescription, () => {
  it('keeps a short answer, and gives an empty string for whitespace', () => {
    expect(cleanDescription(' 一只猫 ')).toBe('一只猫');
    expect(cleanDescription('\n\t ')).toBe('');
  });

  it('does not split a character outside the BMP when cutting', () => {
    const cut = cleanDescription('😀'.repeat(150));
    expect(Array.from(cut)).toHaveLength(100);
    expect(cut.endsWith('😀…')).toBe(true);
  });
});

describe(detectImageType, () => {
  it('recognises PNG, JPEG, GIF and WebP by their magic bytes, and nothing else', () => {
    expect(detectImageType(buildPng())).toBe('image/png');
    expect(detectImageType(buildJpegMagic())).toBe('image/jpeg');
    expect(detectImageType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('image/gif');
    expect(detectImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
    expect(detectImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]))).toBeUndefined();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(detectImageType(new Uint8Array(0))).toBeUndefined();
  });
});
