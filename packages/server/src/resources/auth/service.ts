import {
  generateClientSecret,
  generateToken,
  hashPassword,
  hashSecret,
  passwordNeedsRehash,
  verifyPassword,
  type ScryptCost,
} from '../../domain/credentials.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { StorageConflictError, type Repositories, type UserRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { banActive } from '../../domain/bans.js';
import { usernameTaken } from '../users/index.js';
import { parseInput } from '../../http/validate.js';
import {
  PasswordBody,
  type LoginInput,
  type LoginLinkInput,
  type RegisterInput,
} from './schemas.js';
import { HOUR_MS } from '../../domain/time.js';
import { systemEntropy } from '../../domain/seeded.js';

/**
 * How long a one-time login link works. The link is printed to a terminal (the start banner, the
 * CLI) to be opened at once; an hour covers stepping away first, while a copy found later in
 * scrollback or a log is already useless (and any link stops working once used).
 */
export const LOGIN_LINK_TTL_MS = HOUR_MS;

/** The one answer to an unknown, used or expired login link (which one is not said). */
const loginLinkInvalid = () =>
  invalidField(['code'], 'LOGIN_LINK_INVALID', 'This login link is invalid, used or expired.');

export interface AuthSettings {
  /** How long a session token lives unused (the authenticator slides it on each use). */
  sessionTtlMs: number;
  /** scrypt's cost for new password hashes; a hash made at another cost is redone at login. */
  passwordCost: ScryptCost;
}

/** Accounts of people: register, log in with a password, log out (here or everywhere). */
export function createAuthService(deps: ServiceDeps, settings: AuthSettings) {
  const { storage, clock, ids, revocations } = deps;
  const entropy = deps.entropy ?? systemEntropy;
  const { sessionTtlMs, passwordCost } = settings;
  // Checked against when the login is unknown, so that case costs as much as a wrong password.
  let dummyHash: Promise<string> | undefined;

  const issueSession = async (tx: Repositories, user: UserRecord) => {
    const token = generateToken(user.id, clock.now(), entropy);
    await tx.tokens.create({
      hash: hashSecret(token),
      kind: 'session',
      userId: user.id,
      applicationId: null,
      scopes: [],
      createdAt: clock.now(),
      expiresAt: clock.now() + sessionTtlMs,
    });
    return { token, user_id: user.id };
  };

  return {
    /**
     * Creates a person's account and its first session. A null password (a world's person,
     * control/world.ts) makes an account that signs in only with its tokens and login links.
     */
    async register(input: Omit<RegisterInput, 'password'> & { password: string | null }) {
      const passwordHash =
        input.password === null ? null : await hashPassword(input.password, passwordCost);
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
        user?.passwordHash ??
        (await (dummyHash ??= hashPassword('guildhall-timing-equaliser', passwordCost)));
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
      // A hash from an older cost is redone now, while the password is at hand.
      const rehashed = passwordNeedsRehash(user.passwordHash, passwordCost)
        ? await hashPassword(input.password, passwordCost)
        : null;
      return storage.transaction(async (tx) => {
        if (rehashed !== null) await tx.users.update(user.id, { passwordHash: rehashed });
        return issueSession(tx, user);
      });
    },

    /** Revokes the session token the request came with; its gateway sessions close (4004). */
    async logout(principal: Principal) {
      await storage.tokens.delete(principal.tokenHash);
      revocations.revoke(storage, { tokenHashes: [principal.tokenHash] });
    },

    /** Revokes every session token of the caller's account ("log out everywhere"). */
    async logoutEverywhere(principal: Principal) {
      await storage.transaction(async (tx) => {
        const hashes = await tx.tokens.deleteFor({ userId: principal.user.id, kind: 'session' });
        revocations.revoke(tx, { tokenHashes: hashes });
      });
    },

    /**
     * A one-time login link's code for a person (not a bot): `/login#code=<code>`. It replaces
     * the person's earlier unused link; only its hash is stored.
     */
    async createLoginLink(userId: string): Promise<{ code: string; expiresAt: number }> {
      const user = await storage.users.findById(userId);
      if (user === null || user.bot) throw new ApiError('UNKNOWN_USER');
      const code = generateClientSecret();
      const now = clock.now();
      const expiresAt = now + LOGIN_LINK_TTL_MS;
      // It replaces the person's earlier link: one live link each, even of two made at once.
      await storage.loginLinks.create({
        hash: hashSecret(code),
        userId,
        createdAt: now,
        expiresAt,
      });
      return { code, expiresAt };
    },

    /** Uses a login link's code once: a new session for its person, as a password login gives. */
    async redeemLoginLink(input: LoginLinkInput) {
      const now = clock.now();
      // Used up in a statement of its own, before anything can refuse it: a refusal below must
      // not roll the delete back and leave the link usable (by a person whose ban ends soon).
      const userId = await storage.loginLinks.consume(hashSecret(input.code), now);
      const user = userId === null ? null : await storage.users.findById(userId);
      // A banned person is refused as at login.
      if (user === null || banActive(await storage.provisional.findBan(user.id), now)) {
        throw loginLinkInvalid();
      }
      return storage.transaction((tx) => issueSession(tx, user));
    },

    /**
     * Sets a person's password (an operator's `guildhall user set-password`): for one who signs in
     * only by links, or who forgot theirs. Their sessions stay; a bot has no password.
     */
    async setPassword(userId: string, password: string) {
      const user = await storage.users.findById(userId);
      if (user === null || user.bot) throw new ApiError('UNKNOWN_USER');
      const { password: checked } = parseInput(PasswordBody, { password });
      await storage.users.update(user.id, {
        passwordHash: await hashPassword(checked, passwordCost),
      });
    },

    issueSession: (user: UserRecord) => storage.transaction((tx) => issueSession(tx, user)),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
