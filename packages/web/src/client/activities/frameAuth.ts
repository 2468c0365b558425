/**
 * The frame protocol's AUTHORIZE and AUTHENTICATE (docs/activities.md#the-frame-protocol): the
 * person's consent for the app's scopes, answered with a code, then the app's access token
 * checked to be this app's and the person's. The host (frameProtocol.ts) keeps what
 * AUTHENTICATE grants: its scopes and the application's name.
 *
 * @module
 */
import { RpcErrorCodes } from '@guildhall/protocol';
import { FrameCommandError, invalid, optionalString, stringArg, type Args } from './frameArgs.js';
import type { FrameAbilities, FrameContext } from './frameHostTypes.js';

/** What AUTHENTICATE granted the frame, and its answer. */
export interface Authenticated {
  scopes: Set<string>;
  /** The application's name (the presence's name). */
  applicationName: string;
  data: unknown;
}

/** AUTHORIZE `{client_id, scope(s), response_type?, prompt?, state?, code_challenge...}`. */
export async function authorize(
  context: FrameContext,
  abilities: FrameAbilities,
  args: Args,
): Promise<{ code: string }> {
  if (args['client_id'] !== context.applicationId) {
    throw new FrameCommandError(RpcErrorCodes.INVALID_CLIENTID, 'Invalid client ID');
  }
  const raw = args['scope'] ?? args['scopes'];
  const list: unknown[] = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(' ') : [];
  const scopes = list.filter((s): s is string => typeof s === 'string' && s !== '');
  if (scopes.length === 0 || scopes.length !== list.length) {
    throw invalid('scope must be a list of scopes');
  }
  const responseType = args['response_type'] ?? 'code';
  if (responseType !== 'code') throw invalid('response_type must be code');
  const prompt = optionalString(args, 'prompt');
  if (prompt !== null && prompt !== 'none') throw invalid('prompt must be none');
  return abilities.authorize({
    scope: scopes.join(' '),
    prompt,
    state: optionalString(args, 'state'),
    codeChallenge: optionalString(args, 'code_challenge'),
    codeChallengeMethod: optionalString(args, 'code_challenge_method'),
  });
}

/** AUTHENTICATE `{access_token}`: the token must be this app's, for the person using the client. */
export async function authenticate(
  context: FrameContext,
  abilities: FrameAbilities,
  args: Args,
): Promise<Authenticated> {
  const token = stringArg(args, 'access_token');
  const me = await abilities.oauthMe(token);
  if (me?.application.id !== context.applicationId || me.user?.id !== abilities.currentUserId()) {
    throw new FrameCommandError(RpcErrorCodes.INVALID_TOKEN, 'Invalid access token');
  }
  const { application, user } = me;
  return {
    scopes: new Set(me.scopes),
    applicationName: application.name,
    data: {
      access_token: token,
      user: {
        id: user.id,
        username: user.username,
        discriminator: user.discriminator,
        avatar: user.avatar,
        global_name: user.global_name ?? null,
        public_flags: user.public_flags ?? 0,
      },
      scopes: me.scopes,
      expires: me.expires,
      application: {
        id: application.id,
        name: application.name,
        icon: application.icon,
        description: application.description,
      },
    },
  };
}
