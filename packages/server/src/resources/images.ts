/** @module Images sent as data URIs (icons, avatars, banners, emoji, covers) and served back. */
import type { FastifyReply } from 'fastify';
import type { Blob, BlobStore } from '../blobs/index.js';
import { decodeImageDataUri, type DecodedImage } from '../domain/images.js';
import { ApiError, invalidField } from '../errors/index.js';

export interface ImageRules {
  /** A smaller cap than the 10 MiB every image has (emoji: 256 KiB). */
  maxBytes?: number;
  /** The types taken; every decodable type when absent. */
  types?: readonly DecodedImage['contentType'][];
}

/**
 * Decodes a data-URI image sent in `field`.
 * @throws ApiError 50035 IMAGE_INVALID at `field` when it is not an acceptable image, or
 *   BINARY_TYPE_MAX_SIZE when it is larger than `rules.maxBytes`.
 */
export function decodeImage(field: string, value: string, rules: ImageRules = {}): DecodedImage {
  const image = decodeImageDataUri(value);
  if (image === null || (rules.types !== undefined && !rules.types.includes(image.contentType))) {
    throw invalidField([field], 'IMAGE_INVALID', 'Invalid image data');
  }
  if (rules.maxBytes !== undefined && image.bytes.length > rules.maxBytes) {
    const kb = (rules.maxBytes / 1024).toFixed(1);
    throw invalidField([field], 'BINARY_TYPE_MAX_SIZE', `File cannot be larger than ${kb} kb.`);
  }
  return image;
}

/** Stores a decoded image under `key` (a blob key in the layout the image routes serve). */
export async function putImage(blobs: BlobStore, key: string, image: DecodedImage): Promise<void> {
  await blobs.put(key, { bytes: image.bytes, contentType: image.contentType });
}

/**
 * Decodes and stores an image sent in `field`, and gives its hash (null clears the image).
 * `keyOf` names the blob from the decoded image's hash and extension.
 */
export async function storeImage(
  blobs: BlobStore,
  sent: { field: string; value: string | null; rules?: ImageRules },
  keyOf: (hash: string, extension: string) => string,
): Promise<string | null> {
  if (sent.value === null) return null;
  const image = decodeImage(sent.field, sent.value, sent.rules);
  await putImage(blobs, keyOf(image.hash, image.extension), image);
  return image.hash;
}

/**
 * One cache policy for every CDN file: a day. Hash-named files never change, but emoji and
 * sticker files are named by id and vanish when the expression is deleted, which a year-long
 * `immutable` would hide.
 */
const CACHE_CONTROL = 'public, max-age=86400';

/** Sends the blob under `key` as a CDN file, or 404 when there is none. */
export async function sendBlob(reply: FastifyReply, blobs: BlobStore, key: string) {
  const blob: Blob | null = await blobs.get(key);
  if (blob === null) throw new ApiError('NOT_FOUND');
  return reply.type(blob.contentType).header('cache-control', CACHE_CONTROL).send(blob.bytes);
}
