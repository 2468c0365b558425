/**
 * @module CDN images in the extension and size a client asks for, converted with sharp: the
 * originals are stored once (re-encoded without metadata on upload) and each variant is made on
 * the first request and kept in a bounded in-memory cache.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Blob, BlobStore } from '../blobs/index.js';
import type { DecodedImage } from '../domain/imageDataUri.js';
import { ApiError, invalidField } from '../errors/index.js';
import { DAY_SECONDS } from '../domain/time.js';

/** The sizes `?size=` takes: the powers of two from 16 to 4096. */
export const IMAGE_SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096] as const;

type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

const FORMATS: Record<string, ImageFormat> = {
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
  gif: 'gif',
};

const CONTENT_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The extensions a CDN image is served in, for the routes' path patterns. */
export const IMAGE_EXTENSION = 'png|jpg|jpeg|webp|gif';

/**
 * The most pixels (all frames together) an image may decode to: refuses decompression bombs on
 * upload, and bounds what one conversion can cost.
 */
const MAX_INPUT_PIXELS = 8192 * 8192;

/** Converted images kept per process, in bytes; one variant may take at most a quarter. */
export const VARIANT_CACHE_BYTES = 64 * 1024 * 1024;

/** Conversions run at once; the rest wait, so images cannot take every libuv thread. */
const MAX_CONVERSIONS = 2;

/**
 * One cache policy for every CDN file: a day. Hash-named files never change, but emoji and
 * sticker files are named by id and vanish when the expression is deleted, which a year-long
 * `immutable` would hide.
 */
export const CDN_CACHE_CONTROL = `public, max-age=${String(DAY_SECONDS)}`;

/** The quality lossy formats (JPEG, WebP) are re-encoded at. */
const REENCODE_QUALITY = 90;

const FORMAT_OF_TYPE: Record<DecodedImage['contentType'], ImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** sharp (libvips), loaded at the first image: a server that converts none never loads it. */
const loadSharp = async () => (await import('sharp')).default;

/**
 * An uploaded image re-encoded in its own format: EXIF, XMP, ICC comments and every other
 * metadata dropped, the EXIF orientation applied to the pixels first, animation kept.
 * @returns null when sharp cannot decode it (a truncated file behind a valid signature, say).
 */
export async function reencodeImage(image: DecodedImage): Promise<Buffer | null> {
  const sharp = await loadSharp();
  try {
    return await sharp(image.bytes, { animated: true, limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      .toFormat(FORMAT_OF_TYPE[image.contentType], { quality: REENCODE_QUALITY })
      .toBuffer();
  } catch {
    return null;
  }
}

/** What a CDN route found for a request: where the original may be, and how it may be served. */
export interface ImageRequest {
  /** Blob keys the original may be under; the first that exists is served. */
  keys: readonly string[];
  /** Whether the image is animated (an `a_` hash, an animated emoji): only those come as GIF. */
  animated: boolean;
  /** The extension the path asked for (one of IMAGE_EXTENSION). */
  extension: string;
}

/** The blob keys of an image named by its hash under `prefix` (`a_` hashes are GIFs). */
export function hashedImageKeys(prefix: string, hash: string): string[] {
  const extensions = hash.startsWith('a_') ? ['gif'] : ['png', 'jpg', 'webp'];
  return extensions.map((extension) => `${prefix}/${hash}.${extension}`);
}

/** `?size=`: absent, or one of IMAGE_SIZES; anything else is a 50035 on `size`. */
function sizeOf(query: unknown): number | undefined {
  const value = (query as Record<string, unknown> | undefined)?.['size'];
  if (value === undefined) return undefined;
  const size = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(IMAGE_SIZES as readonly number[]).includes(size)) {
    throw invalidField(
      ['size'],
      'BASE_TYPE_CHOICES',
      `Value must be one of (${IMAGE_SIZES.join(', ')}).`,
    );
  }
  return size;
}

/** A least-recently-used map of buffers with a byte budget. */
class ByteLru {
  readonly #entries = new Map<string, Blob>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(key: string): Blob | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: Blob): void {
    if (entry.bytes.length > this.#maxBytes / 4 || this.#entries.has(key)) return;
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes.length;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.bytes.length;
    }
  }
}

export interface CdnImages {
  /** Answers a CDN image request: the original or a converted variant, or 400, 404 or 415. */
  send(request: FastifyRequest, reply: FastifyReply, image: ImageRequest): Promise<FastifyReply>;
}

/**
 * Serves CDN images in every extension and `?size=`. The original is read on every request (so a
 * deleted image stops being served at once); each variant is converted once per process and kept
 * in an LRU of VARIANT_CACHE_BYTES, with concurrent requests for the same variant sharing one
 * conversion and at most MAX_CONVERSIONS running at a time.
 */
export function createCdnImages(deps: { blobs: BlobStore; cacheBytes?: number }): CdnImages {
  const cache = new ByteLru(deps.cacheBytes ?? VARIANT_CACHE_BYTES);
  const converting = new Map<string, Promise<Blob>>();
  const waiting: (() => void)[] = [];
  let running = 0;

  const slot = async () => {
    if (running >= MAX_CONVERSIONS) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
  };
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };

  const convert = async (
    original: Blob,
    target: { format: ImageFormat; size: number | undefined; animated: boolean },
  ): Promise<Blob> => {
    const sharp = await loadSharp();
    await slot();
    try {
      let image = sharp(original.bytes, {
        animated: target.animated,
        limitInputPixels: MAX_INPUT_PIXELS,
      });
      if (target.size !== undefined) {
        image = image.resize(target.size, target.size, { fit: 'inside', withoutEnlargement: true });
      }
      const bytes = await image.toFormat(target.format).toBuffer();
      return { bytes, contentType: CONTENT_TYPES[target.format] };
    } finally {
      release();
    }
  };

  const variant = (key: string, original: Blob, target: Parameters<typeof convert>[1]) => {
    const id = `${key}|${target.format}|${target.size ?? ''}|${target.animated}`;
    const cached = cache.get(id);
    if (cached !== undefined) return Promise.resolve(cached);
    let pending = converting.get(id);
    if (pending === undefined) {
      pending = convert(original, target)
        .then((blob) => {
          cache.set(id, blob);
          return blob;
        })
        .finally(() => converting.delete(id));
      converting.set(id, pending);
    }
    return pending;
  };

  return {
    async send(request, reply, image) {
      const format = FORMATS[image.extension];
      if (format === undefined) throw new ApiError('NOT_FOUND');
      const size = sizeOf(request.query);
      // Only animated images come as GIF (the `a_` hash says so); a still one is refused.
      if (format === 'gif' && !image.animated) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
      let key: string | undefined;
      let original: Blob | null = null;
      for (key of image.keys) {
        original = await deps.blobs.get(key);
        if (original !== null) break;
      }
      if (original === null || key === undefined) throw new ApiError('NOT_FOUND');
      const wantsAnimation = (request.query as Record<string, unknown>)['animated'] === 'true';
      const animated =
        image.animated && (format === 'gif' || (format === 'webp' && wantsAnimation));
      const blob =
        original.contentType === CONTENT_TYPES[format] && size === undefined
          ? original
          : await variant(key, original, { format, size, animated });
      return reply
        .type(blob.contentType)
        .header('cache-control', CDN_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff')
        .send(blob.bytes);
    },
  };
}
