/**
 * @module oauth/module: OAuth2, OpenID Connect and provisional accounts as the composition root
 * plugs it in (resources/module.ts).
 */
import { OAUTH_COMMANDS } from './commands.js';
import { createOAuth } from './index.js';
import { PROVISIONAL_COMMANDS } from './provisional/commands.js';
import { registerProvisionalAdminRoutes, registerProvisionalRoutes } from './provisional/routes.js';
import type { ProvisionalService } from './provisional/service.js';
import { TEST_IDENTITY_COMMANDS } from './provisional/testCommands.js';
import type { OAuthRouteDeps } from './routeDeps.js';
import { registerOAuthRoutes } from './routes.js';
import { API_PREFIX } from '../http/versioning.js';
import { resourceModule } from '../resources/module.js';

type OAuthDeps = Parameters<typeof createOAuth>[0];

const services = (
  root: {
    deps: Omit<OAuthDeps, 'guilds' | 'issuer' | 'idTokenKey'>;
    baseUrl: OAuthDeps['issuer'];
    idTokenKey?: OAuthDeps['idTokenKey'];
  },
  made: { guilds: OAuthDeps['guilds'] },
) => ({
  oauth: createOAuth({
    ...root.deps,
    guilds: made.guilds,
    issuer: root.baseUrl,
    idTokenKey: root.idTokenKey,
  }),
});

export const oauthModule = resourceModule({
  name: 'oauth',
  services,
  // The provisional accounts' token exchange and the operator's routes, under the API prefix.
  routes: (api, ctx: { provisional: ProvisionalService; adminTokenHash: string | null }) => {
    registerProvisionalRoutes(api, ctx.provisional);
    registerProvisionalAdminRoutes(api, ctx);
  },
  // OAuth2's pages and endpoints, at the root (their API paths carry the prefix themselves).
  rootRoutes: (
    http,
    ctx: Pick<OAuthRouteDeps, 'storage' | 'authenticator' | 'clock' | 'provisional'> & {
      services: ReturnType<typeof services> & Pick<OAuthRouteDeps, 'auth' | 'applications'>;
      baseUrl: () => string;
    },
  ) =>
    registerOAuthRoutes(http, {
      ...ctx.services.oauth,
      storage: ctx.storage,
      authenticator: ctx.authenticator,
      clock: ctx.clock,
      auth: ctx.services.auth,
      applications: ctx.services.applications,
      issuer: ctx.baseUrl,
      apiPrefix: API_PREFIX,
      provisional: ctx.provisional,
    }),
  commands: [...PROVISIONAL_COMMANDS, ...TEST_IDENTITY_COMMANDS, ...OAUTH_COMMANDS],
});
