import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../domain/clock.js';
import { RateLimitedError } from '../errors/index.js';
import { createLogger } from '../logger.js';
import { MemoryRateLimitStore } from '../sharedState/memory/index.js';
import type { RateLimitStore } from '../sharedState/index.js';
import type { TokenKind, UserRecord } from '../storage/index.js';
import { admitRequests } from './admission.js';
import type { Authenticator, Principal } from './authenticator.js';
import { createRateLimiter } from './rateLimit/index.js';
import { createHttpServer } from './server.js';

const NOW = Date.UTC(2026, 10, 25, 12);

function principalOf(kind: TokenKind, id: string): Principal {
  const user: UserRecord = {
    id,
    username: `user${id}`,
    discriminator: '0',
    globalName: null,
    avatar: null,
    banner: null,
    accentColor: null,
    bio: '',
    bot: kind === 'bot',
    system: false,
    email: null,
    verified: true,
    passwordHash: null,
    flags: 0,
    premiumType: 0,
    locale: 'en-US',
    mfaEnabled: false,
    createdAt: NOW,
  };
  return { kind, user, applicationId: null, scopes: [], tokenHash: `hash-${id}` };
}

/**
 * An authenticator over a map of "stored" tokens, with a cache as the real one keeps: a token is
 * known without I/O once it has been read. Counts its reads.
 */
function fakeAuthenticator(stored: Record<string, Principal>) {
  const cache = new Map<string, Principal>();
  const reads: string[] = [];
  const authenticator: Pick<Authenticator, 'authenticate' | 'authenticateCached'> = {
    authenticateCached: (header) => (header === undefined ? null : cache.get(header)),
    authenticate(header) {
      if (header === undefined) return Promise.resolve(null);
      reads.push(header);
      const principal = stored[header] ?? null;
      if (principal !== null) cache.set(header, principal);
      return Promise.resolve(principal);
    },
  };
  return { authenticator, reads };
}

/** A memory store that records which of its calls each request made. */
function countingStore() {
  const inner = new MemoryRateLimitStore();
  const calls: string[] = [];
  const store: RateLimitStore = {
    consume: (...args) => (calls.push('consume'), inner.consume(...args)),
    peek: (...args) => (calls.push('peek'), inner.peek(...args)),
    consumeChain: (...args) => (calls.push('consumeChain'), inner.consumeChain(...args)),
  };
  return { store, calls };
}

function serve(options: { globalPerSecond?: number } = {}) {
  const clock = manualClock(NOW);
  const { store, calls } = countingStore();
  const { authenticator, reads } = fakeAuthenticator({
    'Bot good': principalOf('bot', '42'),
    'Bot other': principalOf('bot', '43'),
  });
  const app = createHttpServer({
    logger: createLogger('silent'),
    authenticator: {
      ...authenticator,
      forgetToken: () => undefined,
      forgetUser: () => undefined,
      forgetAll: () => undefined,
    },
    rateLimiter: createRateLimiter({
      store,
      clock,
      globalPerSecond: options.globalPerSecond ?? 100,
      defaultBucket: { limit: 5, windowMs: 5000 },
      invalidRequests: { limit: 2, windowMs: 60_000 },
    }),
    maxBodyBytes: 1024,
    trustProxy: false,
  });
  app.get('/bot', { config: { auth: ['bot'] } }, () => ({ ok: true }));
  app.get('/session', { config: { auth: ['session'] } }, () => ({ ok: true }));
  app.get('/probe', { config: { auth: 'none', rateLimit: false } }, () => ({ ok: true }));
  const get = async (url: string, authorization?: string, remoteAddress = '192.0.2.1') => {
    calls.length = 0;
    return app.inject({
      method: 'GET',
      url,
      remoteAddress,
      headers: authorization === undefined ? {} : { authorization },
    });
  };
  return { app, clock, calls, reads, get };
}

describe('admission', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(() => close?.());

  it('checks a cached token’s every limit in one store call; a token read first, the address first', async () => {
    const { app, calls, reads, get } = serve();
    close = () => app.close();
    const first = await get('/bot', 'Bot good');
    expect(first.statusCode).toBe(200);
    expect(calls).toEqual(['peek', 'consumeChain']);
    expect(reads).toEqual(['Bot good']);
    const second = await get('/bot', 'Bot good');
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-ratelimit-remaining']).toBe('3');
    expect(calls).toEqual(['consumeChain']);
    expect(reads).toHaveLength(1);
  });

  it('refuses a spent address before its token is read, and before a 401 or 403', async () => {
    const { app, reads, get } = serve();
    close = () => app.close();
    await get('/bot', 'Bot other');
    expect((await get('/bot', 'Bot wrong')).statusCode).toBe(401);
    expect((await get('/bot', 'Bot wrong')).statusCode).toBe(401);
    expect(reads).toEqual(['Bot other', 'Bot wrong', 'Bot wrong']);

    for (const [url, authorization] of [
      ['/bot', 'Bot good'], // never read: refused before the lookup
      ['/bot', 'Bot other'], // cached
      ['/session', 'Bot other'], // cached, of a kind the route refuses (403)
      ['/bot', undefined], // no token (401)
      ['/nowhere', undefined], // no route (404)
    ] as const) {
      const refused = await get(url, authorization);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.json()).toMatchObject({ global: true });
      expect(refused.headers['x-ratelimit-scope']).toBe('global');
    }
    expect(reads).toHaveLength(3);
    // A route without limits is still served; another address is not held up.
    expect((await get('/probe')).statusCode).toBe(200);
    expect((await get('/bot', 'Bot good', '192.0.2.2')).statusCode).toBe(200);
  });

  it('refuses a user who collected too many invalid answers, from any address', async () => {
    const { app, get } = serve();
    close = () => app.close();
    expect((await get('/session', 'Bot good', '192.0.2.1')).statusCode).toBe(403);
    expect((await get('/session', 'Bot good', '192.0.2.2')).statusCode).toBe(403);
    const refused = await get('/bot', 'Bot good', '192.0.2.3');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ global: true });
    expect((await get('/bot', 'Bot other', '192.0.2.3')).statusCode).toBe(200);
  });

  it('does not count a request refused by the global limit in its route bucket', async () => {
    const { app, clock, get } = serve({ globalPerSecond: 2 });
    close = () => app.close();
    expect((await get('/bot', 'Bot good')).headers['x-ratelimit-remaining']).toBe('4');
    expect((await get('/bot', 'Bot good')).headers['x-ratelimit-remaining']).toBe('3');
    const refused = await get('/bot', 'Bot good');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ global: true });
    clock.advance(1000);
    expect((await get('/bot', 'Bot good')).headers['x-ratelimit-remaining']).toBe('2');
  });

  it('admits a cached caller at once when the store answers at once, and refuses at once', async () => {
    const { authenticator } = fakeAuthenticator({ 'Bot good': principalOf('bot', '42') });
    await authenticator.authenticate('Bot good');
    const limiter = createRateLimiter({
      store: new MemoryRateLimitStore(),
      clock: manualClock(NOW),
      globalPerSecond: 100,
      defaultBucket: { limit: 1, windowMs: 5000 },
    });
    const hook = admitRequests(authenticator, limiter);
    const config = { auth: ['bot'], url: '/bot' };
    // What the hook reads of Fastify's request and reply.
    const attempt = () => {
      const request = {
        routeOptions: { config, url: '/bot' },
        headers: { authorization: 'Bot good' },
        principal: null,
        method: 'GET',
        ip: '192.0.2.1',
        params: {},
      };
      const headers: Record<string, string>[] = [];
      const reply = { headers: (h: Record<string, string>) => headers.push(h) };
      let answered: { err: unknown } | null = null;
      const done = (err?: unknown) => {
        answered = { err };
      };
      (hook as unknown as (...args: unknown[]) => void)(request, reply, done);
      // Read before any promise could settle: done must have been called already.
      return { answered: answered as { err: unknown } | null, request, headers };
    };
    const first = attempt();
    expect(first.answered).toEqual({ err: undefined });
    expect(first.request.principal).toMatchObject({ user: { id: '42' } });
    expect(first.headers[0]).toMatchObject({ 'x-ratelimit-remaining': '0' });
    const second = attempt();
    expect(second.answered?.err).toBeInstanceOf(RateLimitedError);
  });
});
