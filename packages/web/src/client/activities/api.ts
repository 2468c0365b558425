/**
 * The HTTP routes the activities part of the client uses (docs/activities.md): the apps that can
 * be launched in a channel, launching or joining an instance and leaving it, the local authorize
 * routes behind AUTHORIZE's consent, and `GET /oauth2/@me` behind AUTHENTICATE.
 *
 * @module
 */
import { api, API_BASE } from '../../lib/api.js';
import type { OAuthMe } from './frameProtocol.js';

/** A participant of an instance, as the instance object lists them. */
export interface InstanceParticipant {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  discriminator: string;
  nickname?: string | null;
}

/** The client's instance object (route answers and EMBEDDED_ACTIVITY_UPDATE's data). */
export interface ActivityInstance {
  application_id: string;
  instance_id: string;
  launch_id: string;
  location: { id: string; kind: 'gc' | 'pc'; channel_id: string; guild_id?: string | null };
  users: string[];
  participants: InstanceParticipant[];
  launched_by: string;
  ended: boolean;
  activity_origin: string;
}

/** An app the person may launch in a channel (the activity shelf). */
export interface ShelfApplication {
  id: string;
  name: string;
  icon: string | null;
  description: string;
}

/** The consent screen's facts: the app, the scopes, whether the person already authorized them. */
export interface LocalAuthorizeInfo {
  application: { id: string; name: string; icon: string | null; description: string };
  scopes: string[];
  authorized: boolean;
}

export function activityShelf(channelId: string): Promise<{ applications: ShelfApplication[] }> {
  return api('GET', `/channels/${channelId}/activity-shelf`);
}

export function listInstances(channelId: string): Promise<ActivityInstance[]> {
  return api('GET', `/channels/${channelId}/activity-instances`);
}

/** Launches the app's instance in the channel, or joins the one running there. */
export function launchActivity(
  channelId: string,
  applicationId: string,
): Promise<ActivityInstance> {
  return api('POST', `/channels/${channelId}/activity-instances`, {
    body: { application_id: applicationId },
  });
}

/**
 * A proxy ticket for the app (`POST /applications/{id}/proxy-tickets`): what the frame's address
 * carries so that the proxy host signs the activity's requests (docs/activities.md).
 */
export function proxyTicket(applicationId: string): Promise<{ ticket: string }> {
  return api('POST', `/applications/${applicationId}/proxy-tickets`, { body: {} });
}

export function leaveActivity(channelId: string, instanceId: string): Promise<void> {
  return api('DELETE', `/channels/${channelId}/activity-instances/${instanceId}/participants/@me`);
}

export function localAuthorizeInfo(clientId: string, scope: string): Promise<LocalAuthorizeInfo> {
  return api('GET', '/oauth2/authorize/local', {
    query: { client_id: clientId, scope, response_type: 'code' },
  });
}

/** The local authorize's POST: a code, or the RFC 6749 error body as an ApiError. */
export function localAuthorize(body: {
  client_id: string;
  scope: string;
  authorize: boolean;
  prompt: 'none' | null;
  state: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
}): Promise<{ code: string; state?: string | null }> {
  const payload: Record<string, string> = {
    client_id: body.client_id,
    scope: body.scope,
    response_type: 'code',
    authorize: body.authorize ? 'true' : 'false',
  };
  for (const key of ['prompt', 'state', 'code_challenge', 'code_challenge_method'] as const) {
    const value = body[key];
    if (value !== null) payload[key] = value;
  }
  return api('POST', '/oauth2/authorize/local', { body: payload });
}

/**
 * `GET /oauth2/@me` with an app's access token (never the session's): null when the token is
 * refused. The session token is not sent.
 */
export async function oauthMe(accessToken: string): Promise<OAuthMe | null> {
  const response = await fetch(`${API_BASE}/oauth2/@me`, {
    headers: { Authorization: `Bearer ${accessToken}` },
    credentials: 'omit',
  });
  if (!response.ok) return null;
  return (await response.json()) as OAuthMe;
}
