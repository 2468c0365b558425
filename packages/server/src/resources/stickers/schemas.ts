import { z } from 'zod';
import { DisplayName } from '../../http/schemas.js';

/** Sticker descriptions: empty, or 2–100 characters (the platform's rule). */
const StickerDescription = z
  .string()
  .max(100)
  .refine((value) => value === '' || value.length >= 2, {
    message: 'Must be between 2 and 100 in length.',
    params: { code: 'BASE_TYPE_BAD_LENGTH' },
  });

/** The text fields of a new sticker, from form fields or JSON alike. */
export const CreateStickerFields = z.object({
  name: DisplayName(2, 30),
  tags: z.string().min(1).max(200),
  description: StickerDescription.nullable().optional(),
});

/** The JSON form of a create (our fallback beside multipart): `file` is a data URI. */
export const CreateStickerJsonBody = CreateStickerFields.extend({ file: z.string() });

export const ModifyStickerBody = z.object({
  name: DisplayName(2, 30).optional(),
  tags: z.string().min(1).max(200).optional(),
  description: StickerDescription.nullable().optional(),
});
export type ModifyStickerInput = z.infer<typeof ModifyStickerBody>;

export type CreateStickerInput = z.infer<typeof CreateStickerFields> & { file: Buffer };

export const StickerParams = z.object({ guild_id: z.string(), sticker_id: z.string() });

/** The largest sticker file the platform takes: 512 KiB. */
export const MAX_STICKER_BYTES = 512 * 1024;
/** Sticker slots of a guild without boosts (premium tier 0). */
export const STICKER_LIMIT_TIER_0 = 5;

export const PackParams = z.object({ pack_id: z.string() });
export const StickerIdParams = z.object({ sticker_id: z.string() });
