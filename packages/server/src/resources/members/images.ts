import type { BlobStore } from '../../blobs/index.js';
import { decodeImageDataUri } from '../../domain/images.js';
import { invalidField } from '../../errors/index.js';

/**
 * Decodes an image sent as a data URI, stores it, and gives its hash (null clears the image).
 * `keyOf` names the blob from the hash and extension, in the layout the image routes serve.
 * @throws ApiError 50035 IMAGE_INVALID at `field` when the value is not an acceptable image.
 */
export async function storeImage(
  blobs: BlobStore,
  image: { field: string; value: string | null },
  keyOf: (hash: string, extension: string) => string,
): Promise<string | null> {
  if (image.value === null) return null;
  const decoded = decodeImageDataUri(image.value);
  if (decoded === null) throw invalidField([image.field], 'IMAGE_INVALID', 'Invalid image data');
  await blobs.put(keyOf(decoded.hash, decoded.extension), {
    bytes: decoded.bytes,
    contentType: decoded.contentType,
  });
  return decoded.hash;
}
