import { createHash, randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS, PermissionFlags, isSnowflake } from '@guildhall/protocol';
import { hashSecret } from '../domain/credentials.js';
import { loadGuildAccess } from '../resources/access/index.js';
import type { GuildService } from '../resources/guilds/index.js';
import type {
  ApplicationRecord,
  GuildRecord,
  IntegrationType,
  Repositories,
  UserRecord,
} from '../storage/index.js';
import { OAuthError } from './errors.js';
import type { OAuthParams } from './params.js';
import { grantScopeRefusal } from './scopeGrants.js';
import { expandScopes, parseScopes, scopeRefusal } from './scopes.js';
import type { OAuthCore, OAuthCoreDeps } from './service.js';
import { MINUTE_MS } from '../domain/time.js';

/** Authorization codes live 10 minutes (RFC 6749 §4.1.2 recommends at most 10). */
export const CODE_TTL_MS = 10 * MINUTE_MS;
/** The longest OpenID `nonce` an authorization request may carry. */
const MAX_NONCE_LENGTH = 512;
/** The most guilds the bot install picker looks through (more than a user may join). */
const BOT_GUILD_PICKER_LIMIT = 200;

/** The parameters of an authorize request, as strings (query, form or JSON). */
export type AuthorizeParams = OAuthParams;

/** An authorize request whose client and redirect URI are known good. */
export interface AuthorizeRequest {
  application: ApplicationRecord;
  /** Where the answer goes; null only for a bot-only install without a redirect. */
  redirectUri: string | null;
  /** The scopes as asked (for the page), and as granted (meta-scopes expanded). */
  requested: string[];
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
  nonce: string | null;
  integrationType: IntegrationType;
  prompt: 'consent' | 'none';
  /** The bot's permissions for a bot install. */
  permissions: bigint;
  /** A preselected guild for a bot install. */
  guildId: string | null;
  /** The parameters to post back with the decision. */
  params: OAuthParams;
  /**
   * A request from a local client (an activity's frame or an RPC app): no redirect, the code is
   * handed to the client that asked, and exchanged without a `redirect_uri`.
   */
  local: boolean;
}

/** Result of validating a request: usable, or an error shown on the page or sent back. */
export type AuthorizeValidation =
  | { ok: true; request: AuthorizeRequest }
  /** `redirectUri` null: the error is shown on the page (the redirect is not trusted). */
  | { ok: false; error: OAuthError; redirectUri: string | null; state: string | null };

const PASSED_PARAMS = [
  'response_type',
  'client_id',
  'scope',
  'state',
  'redirect_uri',
  'prompt',
  'integration_type',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'permissions',
  'guild_id',
  // Where the person came from (the consent page's link back at the end; never a redirect).
  'return_to',
] as const;

const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_STATE = 2048;

/** The redirect URL carrying `params` (added to the URI's own query, which is kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) {
    if (value !== null) url.searchParams.set(key, value);
  }
  return url.toString();
}

/** The redirect URL carrying an authorization error (RFC 6749 §4.1.2.1). */
export function redirectWithError(
  redirectUri: string,
  error: OAuthError,
  state: string | null,
): string {
  return redirectWith(redirectUri, {
    error: error.error,
    error_description: error.message,
    state,
  });
}

/** The S256 challenge of a verifier (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** The SDK's default redirect of a public client when no custom scheme is set. */
export function defaultPublicRedirect(applicationId: string): string {
  return `platform-${applicationId}:/authorize/callback`;
}

/**
 * A loopback redirect with a port: `http://127.0.0.1:<port>…` or `http://[::1]:<port>…`, the
 * port 1–65535 written without leading zeros, followed by the path (or the query, or nothing).
 * Only these two literal addresses: `localhost` can be resolved elsewhere (RFC 8252 §8.3).
 */
const LOOPBACK_WITH_PORT = /^http:\/\/(127\.0\.0\.1|\[::1\]):([1-9]\d{0,4})(?=[/?]|$)/;

/**
 * The registered loopback URI a redirect with a port stands for (RFC 8252 §7.3): the same URI
 * without its port, or null when the URI is not a loopback one with a port.
 */
export function loopbackWithoutPort(uri: string): string | null {
  const match = LOOPBACK_WITH_PORT.exec(uri);
  if (match === null || Number(match[2]) > 65535) return null;
  return `http://${match[1] ?? ''}${uri.slice(match[0].length)}`;
}

/**
 * Whether the application may send the user to this redirect URI: one it registered, exactly
 * (custom schemes too); a native app's loopback redirect on any port when the app registered the
 * same URI without a port (`http://127.0.0.1/callback` allows `http://127.0.0.1:53127/callback`,
 * RFC 8252 §7.3: same host, path and query); or, for a public client, its own
 * `platform-<id>:/authorize/callback`.
 */
export function allowedRedirect(application: ApplicationRecord, uri: string): boolean {
  if (application.redirectUris.includes(uri)) return true;
  const portless = loopbackWithoutPort(uri);
  if (portless !== null && application.redirectUris.includes(portless)) return true;
  return application.publicClient && uri === defaultPublicRedirect(application.id);
}

/** Whether the request installs the app (a bot, or commands for a guild or a user). */
function isInstall(scopes: readonly string[]) {
  return scopes.includes('bot') || scopes.includes('applications.commands');
}

/**
 * An install link that names no scope (`?client_id=…` alone, or with `integration_type`) takes
 * the app's default install for that context (its Installation settings: the context's
 * `oauth2_install_params`, for guilds else `install_params`), the guild context first; its
 * permissions unless the link names some. Without defaults the link is left as it is (and
 * refused for naming no scope).
 */
function withDefaultInstall(application: ApplicationRecord, raw: AuthorizeParams): AuthorizeParams {
  if (raw.scope !== undefined) return raw;
  const config = application.integrationTypesConfig;
  const defaultsOf = (type: '0' | '1') =>
    config[type] === undefined
      ? null
      : (config[type].installParams ?? (type === '0' ? application.installParams : null));
  const type =
    raw.integration_type === '0' || raw.integration_type === '1'
      ? raw.integration_type
      : defaultsOf('0') !== null
        ? '0'
        : '1';
  const defaults = defaultsOf(type);
  if (defaults === null) return raw;
  return {
    ...raw,
    scope: defaults.scopes.join(' '),
    integration_type: type,
    permissions: raw.permissions ?? defaults.permissions,
  };
}

function isBotOnly(scopes: readonly string[]) {
  return scopes.every((scope) => scope === 'bot' || scope === 'applications.commands');
}

/**
 * Checks an authorize request. The client and the redirect URI are checked first: until both are
 * known good, an error is shown to the user and never sent to the URI (RFC 6749 §4.1.2.1). The
 * scopes must be ones the page (or, for a local request, the running client) may grant
 * (scopeGrants.ts): a bot only through the page, an application's own scopes never.
 */
export async function validateAuthorize(
  repos: Repositories,
  given: AuthorizeParams,
  options: { local?: boolean } = {},
): Promise<AuthorizeValidation> {
  const local = options.local === true;
  const pageError = (description: string): AuthorizeValidation => ({
    ok: false,
    error: new OAuthError('invalid_request', description),
    redirectUri: null,
    state: null,
  });
  const clientId = given.client_id ?? '';
  const application = isSnowflake(clientId) ? await repos.applications.findById(clientId) : null;
  if (application === null) return pageError('Unknown client_id.');
  const raw = withDefaultInstall(application, given);

  if (local && raw.redirect_uri !== undefined) {
    return pageError('A local authorize request takes no redirect_uri.');
  }
  let redirectUri: string | null = raw.redirect_uri ?? null;
  if (redirectUri !== null && !allowedRedirect(application, redirectUri)) {
    return pageError('redirect_uri is not registered for this application.');
  }
  if (redirectUri === null && application.publicClient && !local) {
    redirectUri = defaultPublicRedirect(application.id);
  }
  if (redirectUri === null && application.redirectUris.length === 1 && !local) {
    redirectUri = application.redirectUris[0] ?? null;
  }
  const state = raw.state ?? null;
  if (state !== null && state.length > MAX_STATE) return pageError('state is too long.');
  const fail = (error: OAuthError): AuthorizeValidation =>
    redirectUri === null
      ? { ok: false, error, redirectUri: null, state: null }
      : { ok: false, error, redirectUri, state };

  let requested: string[];
  try {
    requested = parseScopes(raw.scope);
  } catch (err) {
    if (err instanceof OAuthError) return fail(err);
    throw err;
  }
  const refusal =
    scopeRefusal(application, requested) ??
    grantScopeRefusal(expandScopes(requested), [local ? 'local' : 'page']);
  if (refusal !== null) return fail(refusal);
  if (redirectUri === null && !local && !isBotOnly(requested)) {
    return pageError('redirect_uri is required.');
  }
  if ((redirectUri !== null || local) && raw.response_type !== 'code') {
    return fail(new OAuthError('unsupported_response_type', 'response_type must be code.'));
  }
  const bot = requested.includes('bot');
  if (bot && application.botUserId === null) {
    return fail(new OAuthError('invalid_scope', 'This application has no bot.'));
  }
  if (bot && application.botRequireCodeGrant && redirectUri === null) {
    // No redirect, no code: the install would be the implicit add the app turned off.
    return pageError('This bot requires the code grant: redirect_uri is required.');
  }
  const integrationType = raw.integration_type ?? (bot ? '0' : '1');
  if (integrationType !== '0' && integrationType !== '1') {
    return fail(new OAuthError('invalid_request', 'integration_type must be 0 or 1.'));
  }
  if (bot && integrationType === '1') {
    return fail(new OAuthError('invalid_request', 'The bot scope needs a guild install.'));
  }
  if (isInstall(requested) && application.integrationTypesConfig[integrationType] === undefined) {
    // The installation contexts of its Installation settings (integration_types_config).
    return fail(
      new OAuthError(
        'invalid_request',
        `This application cannot be installed to a ${integrationType === '0' ? 'server' : 'user'}.`,
      ),
    );
  }
  const codeChallenge = raw.code_challenge ?? null;
  if (codeChallenge !== null) {
    if (raw.code_challenge_method !== 'S256') {
      return fail(new OAuthError('invalid_request', 'code_challenge_method must be S256.'));
    }
    if (!PKCE_VALUE.test(codeChallenge)) {
      return fail(new OAuthError('invalid_request', 'code_challenge is malformed.'));
    }
  } else if (application.publicClient && !isBotOnly(requested)) {
    return fail(new OAuthError('invalid_request', 'Public clients must send a code_challenge.'));
  }
  const prompt = raw.prompt ?? 'consent';
  if (prompt !== 'consent' && prompt !== 'none') {
    return fail(new OAuthError('invalid_request', 'prompt must be consent or none.'));
  }
  const permissionsRaw = raw.permissions ?? '0';
  if (!/^\d{1,20}$/.test(permissionsRaw)) {
    return fail(new OAuthError('invalid_request', 'permissions must be an integer.'));
  }
  // Only the bits the platform knows; the rest are dropped, as a role's permissions are.
  const permissions = BigInt(permissionsRaw) & ALL_PERMISSIONS;
  const nonce = raw.nonce ?? null;
  if (nonce !== null && nonce.length > MAX_NONCE_LENGTH) {
    return fail(new OAuthError('invalid_request', 'nonce is too long.'));
  }
  const params: OAuthParams = {};
  for (const key of PASSED_PARAMS) {
    const value = raw[key];
    if (value !== undefined) params[key] = value;
  }
  return {
    ok: true,
    request: {
      application,
      redirectUri,
      requested,
      scopes: expandScopes(requested),
      state,
      codeChallenge,
      nonce,
      integrationType: integrationType === '0' ? 0 : 1,
      prompt,
      permissions,
      guildId: raw.guild_id ?? null,
      params,
      local,
    },
  };
}

/** Where the user goes after a decision, and what happened. */
export interface AuthorizeOutcome {
  location: string | null;
  /** The code of a local request (which has no redirect to carry it). */
  code: string | null;
  /** The guild the bot joined, for a bot install. */
  guild: GuildRecord | null;
}

/** Decisions on authorize requests: the guild picker, codes, bot installs. */
export function createAuthorizeFlow(
  deps: OAuthCoreDeps & { guilds: GuildService; core: OAuthCore },
) {
  const { storage, clock, guilds } = deps;

  /** The guilds where the user may add a bot: those where they hold MANAGE_GUILD. */
  const manageableGuilds = async (userId: string): Promise<GuildRecord[]> => {
    const all = await storage.guilds.listForUser(userId, { limit: BOT_GUILD_PICKER_LIMIT });
    const out: GuildRecord[] = [];
    for (const guild of all) {
      const access = await loadGuildAccess(storage, {
        guildId: guild.id,
        userId,
        nowMs: clock.now(),
      });
      if ((access.permissions & PermissionFlags.MANAGE_GUILD) !== 0n) out.push(guild);
    }
    return out;
  };

  /** A private bot (`bot_public` false) is added only by its application's owner. */
  const checkInstaller = (userId: string, request: AuthorizeRequest): void => {
    const { application } = request;
    if (
      request.scopes.includes('bot') &&
      !application.botPublic &&
      userId !== application.ownerId
    ) {
      throw new OAuthError('access_denied', 'This bot is private: only its owner can add it.');
    }
  };

  return {
    manageableGuilds,
    checkInstaller,

    /** Whether a live authorization already covers the request (prompt=none skips the page). */
    async alreadyAuthorized(userId: string, request: AuthorizeRequest): Promise<boolean> {
      if (request.scopes.includes('bot')) return false;
      const existing = await storage.oauth.findAuthorization(userId, request.application.id);
      return (
        existing !== null &&
        existing.revokedAt === null &&
        request.scopes.every((scope) => existing.scopes.includes(scope))
      );
    },

    /**
     * Applies the user's decision: Cancel answers access_denied; Authorize adds the bot (bot
     * install), records the authorization and, with a redirect URI, issues a code.
     */
    async decide(input: {
      user: UserRecord;
      request: AuthorizeRequest;
      approve: boolean;
      authTime: number;
    }): Promise<AuthorizeOutcome> {
      const { user, request } = input;
      const state = request.state;
      if (!input.approve) {
        return {
          location:
            request.redirectUri === null
              ? null
              : redirectWith(request.redirectUri, {
                  error: 'access_denied',
                  error_description: 'The user denied the request.',
                  state,
                }),
          code: null,
          guild: null,
        };
      }
      let guild: GuildRecord | null = null;
      if (request.scopes.includes('bot')) {
        checkInstaller(user.id, request);
        const guildId = request.guildId ?? '';
        if (!(await manageableGuilds(user.id)).some((g) => g.id === guildId)) {
          throw new OAuthError('invalid_request', 'Pick a server where you can manage the server.');
        }
        // The installer grants the bot only what they hold (owner and ADMINISTRATOR hold all).
        const installer = await loadGuildAccess(storage, {
          guildId,
          userId: user.id,
          nowMs: clock.now(),
        });
        if ((request.permissions & ~installer.permissions) !== 0n) {
          throw new OAuthError('invalid_request', 'You cannot grant permissions you do not have.');
        }
        await guilds.addBot({
          guildId,
          applicationId: request.application.id,
          permissions: request.permissions,
          actorId: user.id,
        });
        guild = await storage.guilds.findById(guildId);
      }
      return storage.transaction(async (tx) => {
        await deps.core.recordAuthorization(tx, {
          user,
          applicationId: request.application.id,
          scopes: request.scopes,
          integrationType: request.integrationType,
          guild,
        });
        if (request.redirectUri === null && !request.local) {
          return { location: null, code: null, guild };
        }
        const code = randomBytes(32).toString('base64url');
        const now = clock.now();
        await tx.oauth.createCode({
          hash: hashSecret(code),
          applicationId: request.application.id,
          userId: user.id,
          scopes: request.scopes,
          redirectUri: request.params.redirect_uri ?? null,
          codeChallenge: request.codeChallenge,
          nonce: request.nonce,
          authTime: input.authTime,
          createdAt: now,
          expiresAt: now + CODE_TTL_MS,
          usedAt: null,
        });
        return {
          location:
            request.redirectUri === null
              ? null
              : redirectWith(request.redirectUri, {
                  code,
                  state,
                  ...(guild === null ? {} : { guild_id: guild.id }),
                }),
          code,
          guild,
        };
      });
    },
  };
}

export type AuthorizeFlow = ReturnType<typeof createAuthorizeFlow>;
