import {
  generateToken,
  hashPassword,
  hashSecret,
  verifyPassword,
} from '../../domain/credentials.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { StorageConflictError, type Repositories, type UserRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { banActive } from '../../oauth/provisional/service.js';
import { usernameTaken } from '../users/schemas.js';
import type { LoginInput, RegisterInput } from './schemas.js';

/** Accounts of people: register, log in with a password, log out. */
export function createAuthService(deps: ServiceDeps) {
  const { storage, clock, ids, authenticator } = deps;
  // Checked against when the login is unknown, so that case costs as much as a wrong password.
  let dummyHash: Promise<string> | undefined;

  const issueSession = async (tx: Repositories, user: UserRecord) => {
    const token = generateToken(user.id, clock.now());
    await tx.tokens.create({
      hash: hashSecret(token),
      kind: 'session',
      userId: user.id,
      applicationId: null,
      scopes: [],
      createdAt: clock.now(),
      expiresAt: null,
    });
    return { token, user_id: user.id };
  };

  return {
    /** Creates a person's account and its first session. */
    async register(input: RegisterInput) {
      const passwordHash = await hashPassword(input.password);
      try {
        return await storage.transaction(async (tx) => {
          const user = await tx.users.create({
            id: ids(),
            username: input.username,
            globalName: input.global_name ?? null,
            email: input.email.toLowerCase(),
            passwordHash,
            createdAt: clock.now(),
          });
          return issueSession(tx, user);
        });
      } catch (err) {
        if (err instanceof StorageConflictError) {
          const taken = await storage.users.findByEmail(input.email.toLowerCase());
          throw taken
            ? invalidField(['email'], 'EMAIL_ALREADY_REGISTERED', 'Email is already registered.')
            : usernameTaken();
        }
        throw err;
      }
    },

    /** Checks a password; the same answer for an unknown login and a wrong password. */
    async login(input: LoginInput) {
      const user = input.login.includes('@')
        ? await storage.users.findByEmail(input.login.toLowerCase())
        : await storage.users.findByUsername(input.login.toLowerCase());
      const stored =
        user?.passwordHash ?? (await (dummyHash ??= hashPassword('guildhall-timing-equaliser')));
      const ok = await verifyPassword(input.password, stored);
      // An operator's ban refuses logins as a wrong password would (oauth/provisional bans).
      const banned =
        ok && user !== null && banActive(await storage.provisional.findBan(user.id), clock.now());
      if (user?.passwordHash == null || !ok || banned) {
        const invalid = {
          _errors: [{ code: 'INVALID_LOGIN', message: 'Login or password is invalid.' }],
        };
        throw new ApiError('INVALID_FORM_BODY', { errors: { login: invalid, password: invalid } });
      }
      return storage.transaction((tx) => issueSession(tx, user));
    },

    /** Revokes the session token the request came with. */
    async logout(principal: Principal) {
      await storage.tokens.delete(principal.tokenHash);
      authenticator.forgetToken(principal.tokenHash);
    },

    issueSession: (user: UserRecord) => storage.transaction((tx) => issueSession(tx, user)),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
