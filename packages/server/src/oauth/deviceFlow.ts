/**
 * The device authorization grant (RFC 8628): a device asks for a code, the person approves it on
 * /activate, and the device's polls of the token endpoint redeem it once.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { hashSecret } from '../domain/credentials.js';
import { SECOND_MS } from '../domain/time.js';
import type { ApplicationRecord, UserRecord } from '../storage/index.js';
import { authenticateClient, readClientCredentials } from './clients.js';
import { OAuthError } from './errors.js';
import {
  required,
  requireGrantable,
  type ClientRequest,
  type IssueAfterMerge,
  type ProvisionalHooks,
} from './grantChecks.js';
import type { OAuthParams } from './params.js';
import { grantScopeRefusal } from './scopeGrants.js';
import { expandScopes, parseScopes, scopeRefusal } from './scopes.js';
import type { OAuthCore, OAuthCoreDeps, TokenResponse } from './service.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Device codes live 5 minutes and are polled every 5 seconds (docs/platform-notes.md#oauth2). */
export const DEVICE_CODE_SECONDS = 300;
export const DEVICE_POLL_SECONDS = 5;
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
function userCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++)
    code += USER_CODE_ALPHABET.charAt(randomInt(USER_CODE_ALPHABET.length));
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** Normalises what a person types: case and the dash do not matter. */
export function normaliseUserCode(input: string): string {
  const letters = input.toUpperCase().replace(/[^A-Z]/g, '');
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

/** The device grant is for the applications whose owner turned it on (`device_flow_enabled`). */
export function requireDeviceFlow(application: ApplicationRecord): void {
  if (!application.deviceFlowEnabled) {
    throw new OAuthError(
      'unauthorized_client',
      'The device flow is not enabled for this application.',
    );
  }
}

/** What the device grant needs of the token endpoint: its client request and merge step. */
export interface DeviceFlowDeps extends OAuthCoreDeps {
  core: OAuthCore;
  issueAfterMerge: IssueAfterMerge;
}

export function createDeviceFlow(deps: DeviceFlowDeps) {
  const { storage, clock, core, issuer, issueAfterMerge } = deps;

  const deviceCode = async (
    application: { id: string },
    params: OAuthParams,
    hooks: ProvisionalHooks | null,
  ): Promise<TokenResponse> => {
    const hash = hashSecret(required(params, 'device_code'));
    const now = clock.now();
    const record = await storage.oauth.findDeviceCode(hash);
    if (record?.applicationId !== application.id) {
      throw new OAuthError('invalid_grant', 'Invalid device code.');
    }
    if (record.status === 'used') throw new OAuthError('invalid_grant', 'Invalid device code.');
    if (record.expiresAt <= now) {
      throw new OAuthError('expired_token', 'The device code has expired.');
    }
    if (record.status === 'denied') {
      throw new OAuthError('access_denied', 'The user denied the request.', { status: 400 });
    }
    if (record.status === 'pending') {
      const early =
        record.lastPolledAt !== null &&
        now - record.lastPolledAt < record.intervalSeconds * SECOND_MS;
      await storage.oauth.updateDeviceCode(hash, { lastPolledAt: now });
      if (early) throw new OAuthError('slow_down', 'Polling too fast; wait the interval.');
      throw new OAuthError('authorization_pending', 'The user has not answered yet.');
    }
    const userId = record.userId;
    if (userId === null) throw new OAuthError('invalid_grant', 'Invalid device code.');
    requireGrantable(record.scopes, ['device']);
    return storage.transaction(async (tx) => {
      // approved → used at most once, decided by the conditional UPDATE's row count.
      if (!(await tx.oauth.markDeviceCodeUsed(hash))) {
        throw new OAuthError('invalid_grant', 'Invalid device code.');
      }
      return issueAfterMerge({
        tx,
        params,
        hooks,
        issue: {
          userId,
          applicationId: application.id,
          scopes: record.scopes,
          refresh: true,
          requireConsent: true,
        },
      });
    });
  };

  /** POST /oauth2/device/authorize (RFC 8628 §3.1). */
  const deviceAuthorize = async (request: ClientRequest) => {
    const credentials = readClientCredentials(request.authorization, request.body);
    const { application } = await authenticateClient(storage, credentials, {
      publicAllowed: true,
    });
    requireDeviceFlow(application);
    const requested = parseScopes(request.body.scope);
    const refusal =
      scopeRefusal(application, requested) ??
      grantScopeRefusal(expandScopes(requested), ['device']);
    if (refusal !== null) throw refusal;
    const deviceCodeValue = randomBytes(32).toString('base64url');
    const now = clock.now();
    const code = userCode();
    await storage.oauth.createDeviceCode({
      hash: hashSecret(deviceCodeValue),
      userCode: code,
      applicationId: application.id,
      scopes: expandScopes(requested),
      status: 'pending',
      userId: null,
      createdAt: now,
      expiresAt: now + DEVICE_CODE_SECONDS * SECOND_MS,
      lastPolledAt: null,
      intervalSeconds: DEVICE_POLL_SECONDS,
    });
    const verificationUri = `${issuer()}/activate`;
    return {
      device_code: deviceCodeValue,
      user_code: code,
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${code}`,
      expires_in: DEVICE_CODE_SECONDS,
      interval: DEVICE_POLL_SECONDS,
    };
  };

  /** The live device request a person typed the code of, or null. */
  const findPendingDevice = async (input: string) => {
    const record = await storage.oauth.findDeviceCodeByUserCode(normaliseUserCode(input));
    if (record?.status !== 'pending' || record.expiresAt <= clock.now()) return null;
    const application = await storage.applications.findById(record.applicationId);
    return application === null ? null : { record, application };
  };

  /** A person approves or denies a device request. */
  const decideDevice = async (input: { user: UserRecord; userCode: string; approve: boolean }) => {
    const found = await findPendingDevice(input.userCode);
    if (found === null) return false;
    await storage.transaction(async (tx) => {
      await tx.oauth.updateDeviceCode(found.record.hash, {
        status: input.approve ? 'approved' : 'denied',
        userId: input.user.id,
      });
      if (input.approve) {
        await core.recordAuthorization(tx, {
          user: input.user,
          applicationId: found.application.id,
          scopes: found.record.scopes,
          integrationType: 1,
        });
      }
    });
    return true;
  };

  return { deviceCode, deviceAuthorize, findPendingDevice, decideDevice };
}
