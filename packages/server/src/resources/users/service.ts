import { isSnowflake } from '@guildhall/protocol';
import { currentUserView, mayAccess } from '../../domain/tokenAccess.js';
import { ApiError, fieldErrorTree } from '../../errors/index.js';
import { afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import { StorageConflictError, type UserPatch, type UserRecord } from '../../storage/index.js';
import { requireScope } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { userDispatches } from './dispatch.js';
import {
  BotUsername,
  HumanUsername,
  usernameTaken,
  type ModifyCurrentUserInput,
} from './schemas.js';
import { serializeCurrentUser, serializeUser } from './serialize.js';
import { storeImage } from '../imageUploads.js';
import { freeBlobs, imageKeys } from '../../blobs/lifecycle.js';

/** The user-facing operations on users (GET/PATCH /users/@me, GET /users/{id}). */
export function createUserService(deps: ServiceDeps) {
  const { storage, blobs, authenticator } = deps;

  /** Decodes and stores an image; returns its hash (or null to clear). */
  const storeUserImage = (field: 'avatar' | 'banner', userId: string, value: string | null) =>
    storeImage(blobs, { field, value }, (hash, ext) => `${field}s/${userId}/${hash}.${ext}`);

  const modifyCurrent = async (principal: Principal, input: ModifyCurrentUserInput) => {
    const user: UserRecord = principal.user;
    const patch: UserPatch = {};
    if (input.username !== undefined && input.username !== user.username) {
      const checked = (user.bot ? BotUsername : HumanUsername).safeParse(input.username, {
        reportInput: true,
      });
      if (!checked.success) {
        throw new ApiError('INVALID_FORM_BODY', {
          errors: fieldErrorTree(checked.error.issues, ['username']),
        });
      }
      patch.username = checked.data;
    }
    if (input.global_name !== undefined && !user.bot) patch.globalName = input.global_name;
    if (input.avatar !== undefined)
      patch.avatar = await storeUserImage('avatar', user.id, input.avatar);
    if (input.banner !== undefined)
      patch.banner = await storeUserImage('banner', user.id, input.banner);
    let updated: UserRecord | null;
    try {
      updated = await storage.users.update(user.id, patch);
    } catch (err) {
      if (err instanceof StorageConflictError) {
        throw usernameTaken();
      }
      throw err;
    }
    if (updated === null) throw new ApiError('UNKNOWN_USER');
    // The images replaced or removed go (the update committed on its own).
    await freeBlobs(storage, blobs, [
      ...(patch.avatar === undefined ? [] : imageKeys(`avatars/${user.id}`, user.avatar)),
      ...(patch.banner === undefined ? [] : imageKeys(`banners/${user.id}`, user.banner)),
    ]);
    authenticator.forgetUser(user.id);
    // One statement, committed: published with every field, each of the user's sessions sees
    // what its token reads of them (gateway/tokenRouting.ts).
    if (Object.keys(patch).length > 0) {
      afterWrite(
        storage,
        userDispatches.userUpdate(serializeCurrentUser(updated, { email: true, premium: true })),
      );
    }
    return serializeCurrentUser(updated, currentUserView(principal));
  };

  return {
    current(principal: Principal) {
      // The email with `email`, the real premium_type with identify.premium (first-party
      // sessions both, bots neither): the rule USER_UPDATE and READY follow (domain/tokenAccess.ts).
      if (!mayAccess(principal, 'currentUser')) throw new ApiError('UNAUTHORIZED');
      return serializeCurrentUser(principal.user, currentUserView(principal));
    },

    async get(userId: string) {
      const user = isSnowflake(userId) ? await storage.users.findById(userId) : null;
      if (user === null) throw new ApiError('UNKNOWN_USER');
      return serializeUser(user);
    },

    modifyCurrent,

    /**
     * `PATCH /partner-sdk/provisional-accounts/@me` (the SDK's UpdateProvisionalAccountDisplayName):
     * a provisional account's own token, with `account.global_name.update`, sets its global name.
     * @throws ApiError 50026 without the scope, 530010 for a full account's token.
     */
    async updateProvisionalDisplayName(principal: Principal, globalName: string) {
      requireScope(principal, 'account.global_name.update');
      if (!(await storage.provisional.isProvisional(principal.user.id))) {
        throw new ApiError('USER_ACCOUNT_NOT_PROVISIONAL');
      }
      return modifyCurrent(principal, { global_name: globalName });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
