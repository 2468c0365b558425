/**
 * What the account-linking tests share: a public client app with the SDK's loopback redirect,
 * a person with a session, and an `openUrl` that does the person's part of the authorize page
 * over HTTP (the JSON consent decision, then the redirect fetched on the SDK's listener).
 *
 * @module
 */
import { AuthorizationArgs } from '../src/node.js';
import type { SdkWorld } from './support.js';

export const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback';

export interface Person {
  id: string;
  session: string;
}

/** The app becomes a public client with the SDK's loopback redirect (owner's session). */
export async function makePublicClient(world: SdkWorld, extra: object = {}): Promise<void> {
  const res = await world.api('PATCH', `/applications/${world.dev.applicationId}`, {
    auth: world.dev.userToken,
    json: { public_client: true, redirect_uris: [LOOPBACK_REDIRECT], ...extra },
  });
  if (res.status !== 200) throw new Error(`PATCH application: ${JSON.stringify(res)}`);
}

/** A registered person with a session token. */
export async function person(world: SdkWorld, name: string): Promise<Person> {
  const session = await world.server.app.services.auth.register({
    email: `${name}@example.test`,
    username: name,
    password: 'correct horse battery',
  });
  return { id: session.user_id, session: session.token };
}

export interface Consent {
  /** The authorize page's URLs the SDK opened. */
  opened: string[];
  /** Where the browser was sent back to (the loopback redirect with its query). */
  redirected: string[];
  openUrl: (url: string) => Promise<void>;
}

/**
 * An `openUrl` that acts as the person in a browser: reads the authorize page's query, posts the
 * consent decision with the person's session (POST /api/v10/oauth2/authorize → {location}), and
 * fetches the location, which is the SDK's loopback listener.
 */
export function consentAs(
  world: SdkWorld,
  who: Person,
  options: { approve?: boolean; state?: string } = {},
): Consent {
  const consent: Consent = {
    opened: [],
    redirected: [],
    openUrl: async (url) => {
      consent.opened.push(url);
      const page = new URL(url);
      const query = Object.fromEntries(page.searchParams);
      const decided = await world.api<{ location: string }>('POST', '/oauth2/authorize', {
        auth: who.session,
        json: {
          ...query,
          ...(options.state === undefined ? {} : { state: options.state }),
          authorize: options.approve ?? true,
        },
      });
      if (decided.status !== 200) throw new Error(`consent: ${JSON.stringify(decided)}`);
      consent.redirected.push(decided.body.location);
      await fetch(decided.body.location);
    },
  };
  return consent;
}

/** The person authorizes the app (PKCE) through the client: the code, verifier and redirect. */
export async function authorizeAs(world: SdkWorld, who: Person) {
  const consent = consentAs(world, who);
  const client = await world.client(null, { platform: { openUrl: consent.openUrl } });
  client.setApplicationId(world.dev.applicationId);
  const verifier = await client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes(client.getDefaultCommunicationScopes());
  args.setCodeChallenge(verifier.challenge());
  const { code, redirectUri } = await client.authorize(args);
  return { client, code, redirectUri, verifier: verifier.verifier() };
}
