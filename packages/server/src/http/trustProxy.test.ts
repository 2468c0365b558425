import { describe, expect, it } from 'vitest';
import type { TrustProxy } from '../config.js';
import { createLogger } from '../logger.js';
import { createHttpServer } from './server.js';

/** The caller address a server with `trustProxy` sees for a request through two proxies. */
async function callerAddress(trustProxy: TrustProxy): Promise<string> {
  const app = createHttpServer({
    logger: createLogger('silent'),
    authenticator: {
      authenticate: () => Promise.resolve(null),
      authenticateCached: () => null,
      forgetToken: () => undefined,
      forgetUser: () => undefined,
      forgetAll: () => undefined,
    },
    rateLimiter: null,
    maxBodyBytes: 1024,
    trustProxy,
  });
  app.get('/ip', { config: { auth: 'none' } }, (request) => ({ ip: request.ip }));
  // The client 192.0.2.7 went through the proxy 10.1.2.3, then the proxy 127.0.0.1 (the peer).
  const res = await app.inject({
    method: 'GET',
    url: '/ip',
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': '192.0.2.7, 10.1.2.3' },
  });
  await app.close();
  return res.json<{ ip: string }>().ip;
}

describe('trust proxy', () => {
  it('believes no proxy by default, and every proxy when on', async () => {
    expect(await callerAddress(false)).toBe('127.0.0.1');
    expect(await callerAddress(true)).toBe('192.0.2.7');
  });

  it('believes as many hops as counted', async () => {
    expect(await callerAddress(1)).toBe('10.1.2.3');
    expect(await callerAddress(2)).toBe('192.0.2.7');
  });

  it('believes only proxies inside the address ranges', async () => {
    expect(await callerAddress(['127.0.0.1'])).toBe('10.1.2.3');
    expect(await callerAddress(['127.0.0.0/8', '10.0.0.0/8'])).toBe('192.0.2.7');
    // The peer is not a listed proxy: its X-Forwarded-For is ignored.
    expect(await callerAddress(['10.0.0.0/8'])).toBe('127.0.0.1');
  });
});
