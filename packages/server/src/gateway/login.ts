/**
 * @module gateway/login: who may open or resume a session. One rule for IDENTIFY and RESUME, so
 * that a RESUME never keeps what an IDENTIFY would now refuse.
 */
import { ALL_INTENTS, GatewayCloseCodes as Close, PRIVILEGED_INTENTS } from '@guildhall/protocol';
import { z } from 'zod';
import type { Clock } from '../domain/clock.js';
import type { Authenticator, Principal } from '../http/authenticator.js';
import { intentReview } from '../resources/applications/index.js';
import type { ApplicationRecord, Storage } from '../storage/index.js';
import type { GatewayOptions } from './options.js';
import { privilegedIntentsAllowed } from './privileged.js';
import { shardOf } from './session.js';

/** Why a login is refused: the close it gets. */
export interface Refusal {
  code: number;
  reason: string;
}

export type LoginCheck =
  | { refused: Refusal }
  | {
      refused: null;
      principal: Principal;
      intents: number;
      shard: [number, number];
      application: ApplicationRecord | null;
      guildIds: string[];
      /** An SDK session: an OAuth2 Bearer token with a Social SDK scope (docs/gateway.md). */
      sdk: boolean;
    };

/**
 * The scopes that let an OAuth2 Bearer token open a gateway session (the Social SDK's). Granted
 * scopes are stored expanded (oauth/scopes.ts), so `sdk.social_layer` brings
 * `sdk.social_layer_presence` along.
 */
export const SDK_GATEWAY_SCOPES: readonly string[] = [
  'sdk.social_layer',
  'sdk.social_layer_presence',
];

/** Whether a principal may open an SDK session: a Bearer token with a Social SDK scope. */
export function isSdkPrincipal(principal: Principal): boolean {
  return (
    principal.kind === 'bearer' &&
    principal.applicationId !== null &&
    principal.scopes.some((scope) => SDK_GATEWAY_SCOPES.includes(scope))
  );
}

/** Whether a principal may log in to the gateway at all: bot, session or SDK Bearer token. */
export function mayLogIn(principal: Principal | null): principal is Principal {
  return principal !== null && (principal.kind !== 'bearer' || isSdkPrincipal(principal));
}

/**
 * Intents within the defined bits: a safe integer no larger than ALL_INTENTS (JavaScript's `&`
 * truncates to 32 bits, so 2^32 would pass a bitwise test alone).
 */
const Intents = z
  .number()
  .refine(Number.isSafeInteger)
  .refine((i) => i >= 0 && i <= ALL_INTENTS && (i & ~ALL_INTENTS) === 0);

/** `[shard_id, num_shards]`, 0 ≤ shard_id < num_shards; none means `[0, 1]`. */
const Shard = z
  .tuple([z.number().refine(Number.isSafeInteger), z.number().refine(Number.isSafeInteger)])
  .refine(([id, count]) => count >= 1 && id >= 0 && id < count)
  .nullish()
  .transform((s): [number, number] => (s == null ? [0, 1] : [s[0], s[1]]));

const AUTHENTICATION_FAILED: Refusal = {
  code: Close.AUTHENTICATION_FAILED,
  reason: 'Authentication failed.',
};

export function createLogin(deps: {
  storage: Storage;
  clock: Clock;
  authenticator: Pick<Authenticator, 'authenticate'>;
  options: GatewayOptions;
}) {
  const { storage, clock, authenticator, options } = deps;

  /**
   * A gateway token may come with or without its `Bot ` or `Bearer ` prefix; a bare token is
   * tried as a bot token, a session token, then an OAuth2 access token (the Social SDK sends
   * its access token bare).
   */
  const authenticate = async (token: string): Promise<Principal | null> => {
    if (token === '') return null;
    if (/^(bot|bearer) /i.test(token)) return authenticator.authenticate(token);
    return (
      (await authenticator.authenticate(`Bot ${token}`)) ??
      (await authenticator.authenticate(token)) ??
      authenticator.authenticate(`Bearer ${token}`)
    );
  };

  /**
   * Reads shared by the IDENTIFYs in flight at the same moment: in a storm of one bot's sessions
   * the application, its guild list and its member rows are read once, not once per session. A
   * read that has finished is not reused (no cache to keep current).
   */
  const readsInFlight = new Map<string, Promise<unknown>>();
  const sharedRead = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    const pending = readsInFlight.get(key) as Promise<T> | undefined;
    if (pending !== undefined) return pending;
    const load = read().finally(() => readsInFlight.delete(key));
    readsInFlight.set(key, load);
    return load;
  };

  /** The portal's review rule (users reached), read once for the IDENTIFYs in flight. */
  const reviewRequired = async (applicationId: string) => {
    const review = await sharedRead(`intentReview:${applicationId}`, () =>
      intentReview(storage, applicationId, options.privilegedIntentReviewThreshold),
    );
    return review.required;
  };

  /**
   * What IDENTIFY and RESUME both require of a login: a bot, session or SDK token, valid intents, a
   * valid shard, at most `shardingRequiredGuilds` guilds in it, and privileged intents the
   * application may use. A RESUME passes its session's intents and shard.
   */
  const check = async (
    principal: Principal | null,
    input: { intents: unknown; shard: unknown },
  ): Promise<LoginCheck> => {
    if (!mayLogIn(principal)) return { refused: AUTHENTICATION_FAILED };
    const sdk = principal.kind === 'bearer';
    const intents = Intents.safeParse(input.intents);
    if (!intents.success) {
      return { refused: { code: Close.INVALID_INTENTS, reason: 'Invalid intent(s).' } };
    }
    const shard = Shard.safeParse(input.shard);
    if (!shard.success) {
      return { refused: { code: Close.INVALID_SHARD, reason: 'Invalid shard.' } };
    }
    const [shardId, shardCount] = shard.data;
    const applicationId = principal.applicationId;
    const userId = principal.user.id;
    const application: ApplicationRecord | null =
      applicationId === null
        ? null
        : await sharedRead(`application:${applicationId}`, () =>
            storage.applications.findById(applicationId),
          );
    // An SDK session sees no guilds (its token has no `guilds` scope): no guild list to read.
    const allGuilds = sdk
      ? []
      : await sharedRead(`guilds:${userId}`, () => storage.guilds.listForUser(userId));
    const guildIds = allGuilds.map((g) => g.id).filter((id) => shardOf(id, shardCount) === shardId);
    if (guildIds.length > options.shardingRequiredGuilds) {
      return { refused: { code: Close.SHARDING_REQUIRED, reason: 'Sharding required.' } };
    }
    if (principal.user.bot && (intents.data & PRIVILEGED_INTENTS) !== 0) {
      const allowed = await privilegedIntentsAllowed(storage, {
        application,
        intents: intents.data,
        reviewRequired,
        nowMs: clock.now(),
      });
      if (!allowed) {
        return { refused: { code: Close.DISALLOWED_INTENTS, reason: 'Disallowed intent(s).' } };
      }
    }
    return {
      refused: null,
      principal,
      intents: intents.data,
      shard: shard.data,
      application,
      guildIds,
      sdk,
    };
  };

  return { authenticate, sharedRead, check, mayLogIn, AUTHENTICATION_FAILED };
}

export type Login = ReturnType<typeof createLogin>;
