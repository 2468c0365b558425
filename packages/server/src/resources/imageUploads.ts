/** @module Images sent as data URIs (icons, avatars, banners, emoji, covers) and served back. */
import type { FastifyReply } from 'fastify';
import type { Blob, BlobStore } from '../blobs/index.js';
import { decodeImageDataUri, type DecodedImage } from '../domain/imageDataUri.js';
import { ApiError, invalidField } from '../errors/index.js';
import { CDN_CACHE_CONTROL, reencodeImage } from './imageVariants.js';

export interface ImageRules {
  /** A smaller cap than the 10 MiB every image has (emoji: 256 KiB). */
  maxBytes?: number;
  /** The types taken; every decodable type when absent. */
  types?: readonly DecodedImage['contentType'][];
}

/** An image decoded from a request body, with the field it came in. */
export type SentImage = DecodedImage & { field: string };

/** Bytes in the platform's "kb" of size errors (a kibibyte). */
const KB_BYTES = 1024;

/** The platform's message for a file over `maxBytes` (`File cannot be larger than 512.0 kb.`). */
export function maxSizeMessage(maxBytes: number): string {
  return `File cannot be larger than ${(maxBytes / KB_BYTES).toFixed(1)} kb.`;
}

/**
 * Decodes a data-URI image sent in `field`.
 * @throws ApiError 50035 IMAGE_INVALID at `field` when it is not an acceptable image, or
 *   BINARY_TYPE_MAX_SIZE when it is larger than `rules.maxBytes`.
 */
export function decodeImage(field: string, value: string, rules: ImageRules = {}): SentImage {
  const image = decodeImageDataUri(value);
  if (image === null || (rules.types !== undefined && !rules.types.includes(image.contentType))) {
    throw invalidField([field], 'IMAGE_INVALID', 'Invalid image data');
  }
  if (rules.maxBytes !== undefined && image.bytes.length > rules.maxBytes) {
    throw invalidField([field], 'BINARY_TYPE_MAX_SIZE', maxSizeMessage(rules.maxBytes));
  }
  return { ...image, field };
}

/**
 * Stores a decoded image under `key` (a blob key in the layout the image routes serve),
 * re-encoded so no EXIF or other metadata (a camera's GPS position, say) is ever served.
 * @throws ApiError 50035 IMAGE_INVALID at its field when the image does not decode.
 */
export async function putImage(blobs: BlobStore, key: string, image: SentImage): Promise<void> {
  const bytes = await reencodeImage(image);
  if (bytes === null) throw invalidField([image.field], 'IMAGE_INVALID', 'Invalid image data');
  await blobs.put(key, { bytes, contentType: image.contentType });
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

/** Sends the blob under `key` as a CDN file, as stored, or 404 when there is none. */
export async function sendBlob(reply: FastifyReply, blobs: BlobStore, key: string) {
  const blob: Blob | null = await blobs.get(key);
  if (blob === null) throw new ApiError('NOT_FOUND');
  return reply
    .type(blob.contentType)
    .header('cache-control', CDN_CACHE_CONTROL)
    .header('x-content-type-options', 'nosniff')
    .send(blob.bytes);
}
