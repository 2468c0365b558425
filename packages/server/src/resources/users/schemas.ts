import { z } from 'zod';
import { invalidField } from '../../errors/index.js';

/** Usernames of people: 2–32 of a–z, 0–9, `_` and `.`, without two dots in a row. */
export const HumanUsername = z
  .string()
  .min(2)
  .max(32)
  .regex(
    /^[a-z0-9_.]+$/,
    'Username can only contain lowercase letters, numbers, underscores and periods.',
  )
  .refine((name) => !name.includes('..'), 'Username cannot contain consecutive periods.');

/** Bot names: 2–32 characters, not only spaces, none of `@ # : \``. */
export const BotUsername = z
  .string()
  .min(2)
  .max(32)
  .refine((name) => name.trim().length > 0, 'Username cannot be blank.')
  // Spaces around a name are not part of it: " a" is one character long.
  .refine((name) => name.length < 2 || name.trim().length !== 1, 'Must be 2 or more in length.')
  .refine((name) => !/[@#:`]/.test(name), 'Username cannot contain @, #, : or backticks.')
  // Control characters (NUL, newlines, bidi overrides) have no place in a displayed name.
  .refine((name) => !/[\p{Cc}\p{Cf}]/u.test(name), 'Username cannot contain control characters.')
  .refine(
    (name) => !['everyone', 'here'].includes(name.trim().toLowerCase()),
    'Username is reserved.',
  );

/** The 50035 a taken username gets, wherever a name is chosen. */
export function usernameTaken() {
  return invalidField(
    ['username'],
    'USERNAME_ALREADY_TAKEN',
    'Username is unavailable. Try adding numbers, letters, underscores _ , or periods.',
  );
}

export const GlobalName = z.string().min(1).max(32);

export const ModifyCurrentUserBody = z.object({
  username: z.string().optional(),
  avatar: z.string().nullable().optional(),
  banner: z.string().nullable().optional(),
  global_name: GlobalName.nullable().optional(),
});
export type ModifyCurrentUserInput = z.infer<typeof ModifyCurrentUserBody>;

/** UpdateProvisionalAccountDisplayName: the global name a provisional account takes. */
export const ProvisionalDisplayNameBody = z.object({ global_name: GlobalName });

export const UserIdParams = z.object({ user_id: z.string() });
