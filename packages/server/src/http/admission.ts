import type {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import { ApiError } from '../errors/index.js';
import type { Authenticator, Principal } from './authenticator.js';
import type { RateLimiter } from './rateLimit/index.js';

type Admit = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

/**
 * The onRequest hook that lets a request in, before its body is read: who is calling (the route's
 * `config.auth`), and whether the rate limits let them (its `config.rateLimit`).
 *
 * An address that collected too many 401, 403 and 429 answers is refused before anything else,
 * before its token can cost a database read. For a token this node has cached (most requests),
 * the address's count is read by `rateLimiter.check` with the request's other limits, all in one
 * store call (one Redis round trip); it is read on its own, first, only when the token must be
 * looked up, or when the request is refused before `check` (401, 403, or no route to count it).
 *
 * A request whose token is cached, let in by a store that answers at once (the in-memory one),
 * is admitted without a promise: the hook calls `done` before it returns.
 */
export function admitRequests(
  authenticator: Pick<Authenticator, 'authenticate' | 'authenticateCached'>,
  rateLimiter: RateLimiter | null,
): onRequestHookHandler {
  const admitLater = slowAdmission(authenticator, rateLimiter);

  /** The common case at once; anything else (a lookup, a refusal) by `admitLater`. */
  const admit: Admit = (request, reply) => {
    const route = request.routeOptions;
    const config = route.config;
    const auth = config.auth;
    if (auth !== undefined && auth !== 'none') {
      const principal = authenticator.authenticateCached(request.headers.authorization);
      if (principal === undefined || principal === null || !auth.includes(principal.kind)) {
        return admitLater(request, reply, principal);
      }
      request.principal = principal;
    }
    const limiter = config.rateLimit === false ? null : rateLimiter;
    if (limiter === null) return undefined;
    return route.url !== undefined ? limiter.check(request, reply) : limiter.checkAddress(request);
  };

  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let admitted: void | Promise<void>;
    try {
      admitted = admit(request, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (admitted === undefined) {
      done();
      return;
    }
    admitted.then(
      () => {
        done();
      },
      (err: unknown) => {
        done(err as Error);
      },
    );
  };
}

/**
 * Admission when the cache did not let the caller in at once: the token looked up, or the
 * caller refused (the address's count read first, so a banned address gets its 429).
 */
function slowAdmission(
  authenticator: Pick<Authenticator, 'authenticate'>,
  rateLimiter: RateLimiter | null,
) {
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    cached: Principal | null | undefined,
  ): Promise<void> => {
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
      let principal = cached;
      if (principal === undefined) {
        await checkAddress();
        principal = await authenticator.authenticate(request.headers.authorization);
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
