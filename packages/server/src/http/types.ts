import type { TokenKind } from '../storage/index.js';
import type { Principal } from './authenticator.js';
import type { RouteRateLimit } from './rateLimit/index.js';

/** Which credentials a route accepts: token kinds, or 'none' for public routes. */
export type AuthRequirement = 'none' | readonly TokenKind[];

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; null on public routes. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /** false: no limit at all, not even the address ban (health probes). */
    rateLimit?: RouteRateLimit | false;
  }
}
