import { z } from 'zod';
import { GlobalName, HumanUsername } from '../users/index.js';

/** A new password: 8 to 72 characters. */
const NewPassword = z.string().min(8).max(72);
export const PasswordBody = z.object({ password: NewPassword });

export const RegisterBody = z.object({
  email: z.email().max(254),
  username: HumanUsername,
  password: NewPassword,
  global_name: GlobalName.optional(),
});
export type RegisterInput = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  /** An email address or a username. */
  login: z.string().min(1).max(254),
  password: z.string().min(1).max(72),
});
export type LoginInput = z.infer<typeof LoginBody>;

export const LoginLinkBody = z.object({
  /** The code of a one-time login link (the `#code=` of the URL). */
  code: z.string().min(1).max(128),
});
export type LoginLinkInput = z.infer<typeof LoginLinkBody>;
