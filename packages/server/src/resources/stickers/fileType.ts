/** Sticker format types (StickerFormatTypes). */
export const StickerFormats = { PNG: 1, APNG: 2, LOTTIE: 3, GIF: 4 } as const;
export type StickerFormat = (typeof StickerFormats)[keyof typeof StickerFormats];

export interface StickerFile {
  formatType: StickerFormat;
  contentType: 'image/png' | 'image/gif' | 'application/json';
  /** The extension of its CDN path, /stickers/{id}.{extension}. */
  extension: 'png' | 'gif' | 'json';
}

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

/** Whether a PNG has an animation control chunk (acTL) before its first image data (APNG). */
function isAnimatedPng(bytes: Buffer): boolean {
  let offset = PNG_SIGNATURE.length;
  while (offset + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('latin1');
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length;
  }
  return false;
}

/** A Lottie animation: a JSON object with a frame rate and a list of layers. */
function isLottie(bytes: Buffer): boolean {
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return false;
    const lottie = parsed as { fr?: unknown; layers?: unknown };
    return typeof lottie.fr === 'number' && Array.isArray(lottie.layers);
  } catch {
    return false;
  }
}

/**
 * The sticker format of a file, read from its bytes (never the declared type): PNG, APNG, GIF
 * or Lottie JSON. Null for anything else.
 */
export function detectStickerFile(bytes: Buffer): StickerFile | null {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    const formatType = isAnimatedPng(bytes) ? StickerFormats.APNG : StickerFormats.PNG;
    return { formatType, contentType: 'image/png', extension: 'png' };
  }
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') {
    return { formatType: StickerFormats.GIF, contentType: 'image/gif', extension: 'gif' };
  }
  if (isLottie(bytes)) {
    return {
      formatType: StickerFormats.LOTTIE,
      contentType: 'application/json',
      extension: 'json',
    };
  }
  return null;
}

/** The CDN extension of a stored sticker's format. */
export function stickerExtension(formatType: number): StickerFile['extension'] {
  if (formatType === StickerFormats.GIF) return 'gif';
  if (formatType === StickerFormats.LOTTIE) return 'json';
  return 'png';
}
