import { createHash } from 'node:crypto';

/** An image sent as a data URI (avatars, banners, icons), decoded and checked. */
export interface DecodedImage {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  extension: 'png' | 'jpg' | 'gif' | 'webp';
  /** The platform's image hash: 32 hex characters, `a_`-prefixed when animated. */
  hash: string;
}

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;
const IMAGE_MEDIA_TYPE = /^image\/(?:png|jpeg|jpg|gif|webp)$/;

/**
 * The bytes of a base64 data URI (`data:{type}/{subtype};base64,...`), whatever its media type.
 * @returns null when the value is not such a URI.
 */
export function parseDataUri(value: string): { mediaType: string; bytes: Buffer } | null {
  const match = DATA_URI.exec(value);
  if (match === null) return null;
  return { mediaType: match[1] ?? '', bytes: Buffer.from(match[2] ?? '', 'base64') };
}

const SIGNATURES: {
  type: DecodedImage['contentType'];
  extension: DecodedImage['extension'];
  test(b: Buffer): boolean;
}[] = [
  {
    type: 'image/png',
    extension: 'png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')),
  },
  {
    type: 'image/jpeg',
    extension: 'jpg',
    test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
  {
    type: 'image/gif',
    extension: 'gif',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  },
  {
    type: 'image/webp',
    extension: 'webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/**
 * Decodes `data:image/...;base64,...`. The bytes decide the type, not the declared one, so a
 * file that is not an image is refused whatever it claims.
 * @returns null when the value is not an acceptable image.
 */
export function decodeImageDataUri(value: string): DecodedImage | null {
  if (value.length > Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64) return null;
  const parsed = parseDataUri(value);
  if (parsed === null || !IMAGE_MEDIA_TYPE.test(parsed.mediaType)) return null;
  const { bytes } = parsed;
  if (bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES) return null;
  const signature = SIGNATURES.find((s) => s.test(bytes));
  if (signature === undefined) return null;
  const digest = createHash('md5').update(bytes).digest('hex');
  return {
    bytes,
    contentType: signature.type,
    extension: signature.extension,
    hash: signature.type === 'image/gif' ? `a_${digest}` : digest,
  };
}
