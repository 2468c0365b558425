import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';
import { MESSAGE_POLICIES, RelationshipType } from '../../storage/index.js';

/** The longest private nickname a user gives a friend. */
export const MAX_RELATIONSHIP_NICKNAME_LENGTH = 32;
/** The longest username a friend request by name may carry (the platform's username limit). */
const MAX_USERNAME_LENGTH = 32;

export const RelationshipParams = z.object({ user_id: Snowflake });

/** Game-scoped routes: a session names the application; a Bearer token's is its own. */
export const GameRelationshipQuery = z.object({ application_id: Snowflake.optional() });

/** PUT .../relationships/{user.id}: no type (or 1) sends or accepts a request, 2 blocks. */
export const PutRelationshipBody = z.object({
  type: z
    .union([z.literal(RelationshipType.FRIEND), z.literal(RelationshipType.BLOCKED)])
    .nullable()
    .optional(),
});
export type PutRelationshipInput = z.infer<typeof PutRelationshipBody>;

/** POST .../relationships: a friend request by username (discriminator "0" or absent). */
export const SendRequestBody = z.object({
  username: z.string().min(1).max(MAX_USERNAME_LENGTH),
  discriminator: z
    .union([z.string().max(4), z.number().int().min(0).max(9999)])
    .nullable()
    .optional(),
});
export type SendRequestInput = z.infer<typeof SendRequestBody>;

/** PATCH .../relationships/{user.id}: the friend's private nickname (null clears it). */
export const PatchRelationshipBody = z.object({
  nickname: z
    .string()
    .max(MAX_RELATIONSHIP_NICKNAME_LENGTH)
    // Control characters (NUL, newlines, bidi overrides) have no place in a displayed name.
    .refine((name) => !/[\p{Cc}\p{Cf}]/u.test(name), 'Nickname cannot contain control characters.')
    .nullable(),
});

/** PATCH /users/@me/settings/connected-games: who may message the user from games. */
export const ConnectedGamesSettingsBody = z.object({
  allow_messages_from: z.enum(MESSAGE_POLICIES),
});
