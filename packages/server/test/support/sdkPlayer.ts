/**
 * A player of a game in the gateway tests: a member of the fixture's guild with a Social SDK
 * session of the game (an `sdk.social_layer` Bearer token, identified, READY received).
 *
 * @module
 */
import { expandScopes } from '../../src/oauth/index.js';
import type { GatewayClient } from './gatewayClient.js';
import type { GatewayFixture } from './gatewayFixture.js';

export interface SdkPlayer {
  id: string;
  /** The person's own session token (the web client's). */
  personToken: string;
  /** `Bearer <the game's token>`. */
  bearer: string;
  client: GatewayClient;
  sessionId: string;
}

/** Joins `name` to the fixture's guild and opens their SDK session of `applicationId`. */
export async function sdkPlayer(
  gw: GatewayFixture,
  name: string,
  applicationId: string,
): Promise<SdkPlayer> {
  const { userId: id, token: personToken } = await gw.guild.join(name);
  const { access_token: token } = await gw.server.app.services.oauth.issueTokens({
    userId: id,
    applicationId,
    scopes: expandScopes(['sdk.social_layer']),
    refresh: false,
  });
  const { client, ready } = await gw.identify({ token, intents: 0 });
  return { id, personToken, bearer: `Bearer ${token}`, client, sessionId: ready.session_id };
}
