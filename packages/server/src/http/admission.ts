import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/index.js';
import type { Authenticator } from './authenticator.js';
import type { RateLimiter } from './rateLimit/index.js';

/**
 * The onRequest hook that lets a request in, before its body is read: who is calling (the route's
 * `config.auth`), and whether the rate limits let them (its `config.rateLimit`).
 *
 * An address that collected too many 401, 403 and 429 answers is refused before anything else,
 * before its token can cost a database read. For a token this node has cached (most requests),
 * the address's count is read by `rateLimiter.check` with the request's other limits, all in one
 * store call (one Redis round trip); it is read on its own, first, only when the token must be
 * looked up, or when the request is refused before `check` (401, 403, or no route to count it).
 */
export function admitRequests(
  authenticator: Pick<Authenticator, 'authenticate' | 'authenticateCached'>,
  rateLimiter: RateLimiter | null,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    const config = request.routeOptions.config;
    const limiter = config.rateLimit === false ? null : rateLimiter;
    let addressChecked = false;
    const checkAddress = async () => {
      if (limiter === null || addressChecked) return;
      addressChecked = true;
      await limiter.checkAddress(request);
    };

    const auth = config.auth;
    if (auth !== undefined && auth !== 'none') {
      const header = request.headers.authorization;
      let principal = authenticator.authenticateCached(header);
      if (principal === undefined) {
        await checkAddress();
        principal = await authenticator.authenticate(header);
      }
      if (principal === null) {
        await checkAddress();
        throw new ApiError('UNAUTHORIZED');
      }
      // Known even when refused below: its refusals count against the user too.
      request.principal = principal;
      if (!auth.includes(principal.kind)) {
        await checkAddress();
        if (principal.kind === 'bot') throw new ApiError('BOTS_CANNOT_USE_ENDPOINT');
        if (auth.length === 1 && auth[0] === 'bot')
          throw new ApiError('ONLY_BOTS_CAN_USE_ENDPOINT');
        throw new ApiError('UNAUTHORIZED');
      }
    }

    if (limiter !== null && request.routeOptions.url !== undefined) {
      await limiter.check(request, reply);
    } else {
      await checkAddress();
    }
  };
}
