import type { BlobStore } from '../../blobs/index.js';
import { decodeImageDataUri, type DecodedImage } from '../../domain/images.js';
import { invalidField } from '../../errors/index.js';

/** The blob folders of guild images, served back by the image routes (system/routes.ts). */
export const GUILD_IMAGE_KINDS = { icon: 'icons', banner: 'banners', splash: 'splashes' } as const;

export type GuildImageField = keyof typeof GUILD_IMAGE_KINDS;

/** Decodes a data-URI image; a bad one is a 50035 on that field. */
export function decodeGuildImage(field: GuildImageField, value: string): DecodedImage {
  const image = decodeImageDataUri(value);
  if (image === null) throw invalidField([field], 'IMAGE_INVALID', 'Invalid image data');
  return image;
}

/** Stores a decoded image under `{kind}/{guild_id}/{hash}.{ext}`. */
export async function putGuildImage(
  blobs: BlobStore,
  target: { field: GuildImageField; guildId: string },
  image: DecodedImage,
): Promise<void> {
  await blobs.put(
    `${GUILD_IMAGE_KINDS[target.field]}/${target.guildId}/${image.hash}.${image.extension}`,
    { bytes: image.bytes, contentType: image.contentType },
  );
}

/** Decodes and stores an image; returns its hash, or null to clear. */
export async function storeGuildImage(
  blobs: BlobStore,
  request: { field: GuildImageField; guildId: string; value: string | null },
): Promise<string | null> {
  if (request.value === null) return null;
  const image = decodeGuildImage(request.field, request.value);
  await putGuildImage(blobs, request, image);
  return image.hash;
}
