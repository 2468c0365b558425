import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../domain/credentials.js';
import { ApiError } from '../../errors/ApiError.js';
import { checkMetricsAccess } from './metrics.js';

/**
 * The rule every /metrics answer goes through, on the main listener and on a listener of its own
 * (routes.test.ts asks real servers for one address of each kind; here every kind of address).
 */
const TOKEN = 'metrics-token-0123456789abcdef0123456789';

/** What `checkMetricsAccess` answers: 200, or the status of the error it throws. */
function answer(access: { host: string; tokenHash: string | null }, authorization?: string) {
  try {
    checkMetricsAccess(access, authorization);
    return 200;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return err.status;
  }
}

describe('who may read /metrics', () => {
  it('without a token, only a loopback listener serves it; any other address answers 404', () => {
    const hosts = ['127.0.0.1', '127.3.2.1', '::1', 'localhost', '0.0.0.0', '::', '192.0.2.10'];
    expect(hosts.map((host) => answer({ host, tokenHash: null }))).toEqual([
      200, 200, 200, 200, 404, 404, 404,
    ]);
    // A header changes nothing without a token configured.
    expect(answer({ host: '0.0.0.0', tokenHash: null }, `Bearer ${TOKEN}`)).toBe(404);
  });

  it('with a token, only Authorization: Bearer <token> passes, on any address', () => {
    const tokenHash = hashSecret(TOKEN);
    for (const host of ['127.0.0.1', '::1', '0.0.0.0', '192.0.2.10']) {
      expect(answer({ host, tokenHash }, `Bearer ${TOKEN}`), host).toBe(200);
      expect(answer({ host, tokenHash }, `bearer ${TOKEN}`), host).toBe(200);
      const wrongs = [
        undefined,
        `Bearer ${TOKEN}x`,
        `Bot ${TOKEN}`,
        'Bearer ',
        `Bearer ${TOKEN} x`,
      ];
      for (const wrong of wrongs)
        expect(answer({ host, tokenHash }, wrong), String(wrong)).toBe(401);
    }
  });
});
