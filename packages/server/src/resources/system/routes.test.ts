import { describe, expect, it } from 'vitest';
import { useFileServer } from '../../../test/support/fileServer.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';
import { hashSecret } from '../../domain/credentials.js';

/**
 * The server of the tests that leave it whole, on a loopback listener (the default, said here
 * because the tests of who may read /metrics rely on it).
 */
const loopback = useFileServer({ config: { host: '127.0.0.1' } });

/** The value of a series in a /metrics text (`name{labels}`), 0 while it has none. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return Number(line?.slice(series.length + 1) ?? 0);
}

describe('health and metrics', () => {
  // These close the database or the bus: each on a server of its own.
  it('reports healthy while the database answers; /healthz and /readyz 503 when it does not', async () => {
    await using server = await startTestServer();
    const ok = await server.app.http.inject({ method: 'GET', url: '/healthz' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', storage: 'sqlite' });
    await server.app.storage.close();
    const down = await server.app.http.inject({ method: 'GET', url: '/healthz' });
    expect(down.statusCode).toBe(503);
    const ready = await server.app.http.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      checks: { database: 'unavailable' },
      failed: ['database'],
    });
  });

  it('answers /livez while the process runs and /readyz while database and bus answer', async () => {
    const { server } = loopback;
    const live = await server.app.http.inject({ method: 'GET', url: '/livez' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await server.app.http.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', bus: 'ok' } });
  });

  it('answers /readyz 503 naming the bus when the bus is down; /livez stays 200', async () => {
    await using server = await startTestServer();
    await server.app.bus.close();
    const ready = await server.app.http.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', bus: 'unavailable' },
      failed: ['bus'],
    });
    const live = await server.app.http.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
  });

  it('counts requests by route template and status, with a latency histogram', async () => {
    const { server } = loopback;
    const scrape = async () =>
      (await server.app.http.inject({ method: 'GET', url: '/metrics' })).body;
    // The server is the file's: what this test adds to its counters.
    const before = await scrape();
    for (let i = 0; i < 3; i++)
      await server.app.http.inject({ method: 'GET', url: '/api/v9/gateway' });
    await server.app.http.inject({ method: 'GET', url: '/api/v10/users/123' });
    await server.app.http.inject({ method: 'GET', url: '/nowhere' });
    const res = await server.app.http.inject({ method: 'GET', url: '/metrics' });
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    const moved = (series: string) => sample(text, series) - sample(before, series);
    expect(
      moved('guildhall_http_requests_total{method="GET",route="/api/v10/gateway",status="200"}'),
    ).toBe(3);
    expect(
      moved(
        'guildhall_http_requests_total{method="GET",route="/api/v10/users/:user_id",status="401"}',
      ),
    ).toBe(1);
    expect(
      moved('guildhall_http_requests_total{method="GET",route="unmatched",status="404"}'),
    ).toBe(1);
    expect(
      moved(
        'guildhall_http_request_duration_seconds_bucket{method="GET",route="/api/v10/gateway",le="+Inf"}',
      ),
    ).toBe(3);
    expect(
      moved('guildhall_http_request_duration_seconds_count{method="GET",route="/api/v10/gateway"}'),
    ).toBe(3);
    expect(text).toContain('guildhall_process_cpu_user_seconds_total');
    const buckets = [
      ...text.matchAll(
        /duration_seconds_bucket\{method="GET",route="\/api\/v10\/gateway",le="[^"]+"\} (\d+)/g,
      ),
    ].map((m) => Number(m[1]));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
  });
});

describe('who may read /metrics', () => {
  const TOKEN = 'metrics-token-0123456789abcdef0123456789';
  /** What `server` answers to each of `authorizations` (none: no header). */
  const answersOf = async (server: TestServer, authorizations: readonly (string | undefined)[]) => {
    const answers: { status: number; body: string }[] = [];
    for (const authorization of authorizations) {
      const res = await server.app.http.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      answers.push({ status: res.statusCode, body: res.body });
    }
    return answers;
  };
  /**
   * What a server with `config` answers to each of `authorizations` (none: no header): the file's
   * server for its own settings (loopback, no token), else one started with them (a listener's
   * address and token are read at start).
   */
  const read = async (
    config: { host: string; metricsTokenHash?: string | null },
    authorizations: readonly (string | undefined)[] = [undefined],
  ) => {
    if (config.host === '127.0.0.1' && config.metricsTokenHash === undefined)
      return answersOf(loopback.server, authorizations);
    await using server = await startTestServer({ config });
    const answers = await answersOf(server, authorizations);
    return answers;
  };

  // Every kind of address is in metrics.test.ts; here one of each rule through a real server,
  // whose address and token are read at start.
  it('without a token, only a loopback listener serves it', async () => {
    const [loopbackAnswer] = await read({ host: '127.0.0.1' });
    expect(loopbackAnswer?.status).toBe(200);
    const [wildcard] = await read({ host: '0.0.0.0' });
    expect(wildcard?.status).toBe(404);
    expect(wildcard?.body).not.toContain('guildhall_http_requests_total');
  });

  it('with a token, it needs Authorization: Bearer <token> on any address', async () => {
    const metricsTokenHash = hashSecret(TOKEN);
    const wrongs = [undefined, `Bearer ${TOKEN}x`, `Bot ${TOKEN}`, 'Bearer '];
    const [ok, ...refused] = await read({ host: '0.0.0.0', metricsTokenHash }, [
      `Bearer ${TOKEN}`,
      ...wrongs,
    ]);
    expect(ok?.status).toBe(200);
    expect(ok?.body).toContain('guildhall_http_requests_total');
    refused.forEach((res, i) => {
      expect(res.status, String(wrongs[i])).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ code: 0, message: '401: Unauthorized' });
    });
  });
});

describe('health probes and rate limits', () => {
  it('answers /livez, /readyz and /healthz past every limit, while other routes get 429', async () => {
    // One request per route per minute, and an address banned after two 401/403/429 answers.
    await using server = await startTestServer({
      defaultRouteBucket: { limit: 1, windowMs: 60_000 },
      invalidRequestLimit: { limit: 2, windowMs: 600_000 },
    });
    const get = (url: string) => server.app.http.inject({ method: 'GET', url });
    expect((await get('/api/v10/gateway')).statusCode).toBe(200);
    expect((await get('/api/v10/gateway')).statusCode).toBe(429);
    expect((await get('/api/v10/users/@me')).statusCode).toBe(401);
    // The address is now refused everywhere else.
    expect((await get('/api/v10/gateway/bot')).statusCode).toBe(429);
    for (const url of ['/livez', '/readyz', '/healthz']) {
      for (let i = 0; i < 20; i++) expect((await get(url)).statusCode, url).toBe(200);
    }
  });
});

describe('/metrics on a listener of its own', () => {
  const TOKEN = 'metrics-token-0123456789abcdef0123456789';
  const scrape = async (url: string, init?: RequestInit) => {
    const res = await fetch(url, init);
    return { status: res.status, body: await res.text() };
  };

  it('serves /metrics there (and only there) on a real port', async () => {
    const server = await startTestServer({
      listen: true,
      config: { metricsListen: { host: '127.0.0.1', port: 0 } },
    });
    let closed = false;
    try {
      const metricsUrl = server.app.metricsUrl();
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(metricsUrl).not.toBe(server.baseUrl);
      expect((await scrape(`${server.baseUrl}/healthz`)).status).toBe(200);
      const metrics = await scrape(`${String(metricsUrl)}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.body).toContain(
        'guildhall_http_requests_total{method="GET",route="/healthz",status="200"} 1',
      );
      // The main listener no longer has it; the metrics listener has nothing else.
      const main = await scrape(`${server.baseUrl}/metrics`);
      expect(main.status).toBe(404);
      expect(main.body).not.toContain('guildhall_http_requests_total');
      const other = await scrape(`${String(metricsUrl)}/healthz`);
      expect(other.status).toBe(404);
      expect(JSON.parse(other.body)).toEqual({ code: 0, message: '404: Not Found' });
      const post = await scrape(`${String(metricsUrl)}/metrics`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(JSON.parse(post.body)).toEqual({ code: 0, message: '405: Method Not Allowed' });
      await server.close();
      closed = true;
      await expect(fetch(`${String(metricsUrl)}/metrics`)).rejects.toThrow();
    } finally {
      if (!closed) await server.close();
    }
  });

  it('keeps the token and loopback rule for its own address', async () => {
    await using open = await startTestServer({
      listen: true,
      config: { metricsListen: { host: '0.0.0.0', port: 0 } },
    });
    const openUrl = String(open.app.metricsUrl()).replace('0.0.0.0', '127.0.0.1');
    expect((await scrape(`${openUrl}/metrics`)).status).toBe(404);

    await using guarded = await startTestServer({
      listen: true,
      config: { metricsListen: { host: '0.0.0.0', port: 0 }, metricsTokenHash: hashSecret(TOKEN) },
    });
    const url = `${String(guarded.app.metricsUrl()).replace('0.0.0.0', '127.0.0.1')}/metrics`;
    const denied = await scrape(url, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(denied.status).toBe(401);
    expect(JSON.parse(denied.body)).toEqual({ code: 0, message: '401: Unauthorized' });
    expect((await scrape(url)).status).toBe(401);
    const allowed = await scrape(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toContain('guildhall_process_cpu_seconds_total');
  });
});
