import { Writable } from 'node:stream';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../test/support/fileServer.js';
import { seedDeveloper } from '../test/support/testServer.js';
import { createLogger, infoLineWriter, requestLineWriter } from './logger.js';

describe('logs', () => {
  // One server logging everything, at trace; each test reads what was written while it ran.
  let written = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  /** What no line may carry, to the last one the server writes as it closes. */
  const neverLogged: string[] = [];
  // Registered before the server's own hooks, so it runs after the server has closed.
  afterAll(() => {
    for (const secret of neverLogged) expect(written).not.toContain(secret);
  });
  const shared = useFileServer({ logger: createLogger('trace', sink) });
  let from = 0;
  beforeEach(() => {
    from = written.length;
  });
  /** What the server logged since this test began. */
  const logged = () => written.slice(from);

  it('never carry tokens, secrets or passwords, at any level', async () => {
    const { server } = shared;
    const secrets = ['correct horse battery', 'sekrit-code', 'pw-in-log', 'hdr-in-log'];
    const username = uniqueName('logme');
    const seed = await seedDeveloper(server.app, username);
    secrets.push(seed.botToken, seed.userToken, seed.clientSecret);
    const inject = server.app.http.inject.bind(server.app.http);
    await inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bot ${seed.botToken}` },
    });
    await inject({
      method: 'POST',
      url: '/api/v10/auth/login',
      payload: { login: username, password: 'correct horse battery' },
    });
    await inject({
      method: 'GET',
      url: `/api/v10/gateway?code=sekrit-code&token=${seed.userToken}`,
    });
    server.app.logger.info(
      {
        token: seed.userToken,
        client_secret: seed.clientSecret,
        nested: { password: 'pw-in-log' },
      },
      'careless',
    );
    const output = logged();
    expect(output).toContain('request completed');
    expect(output).toContain('[REDACTED]');
    expect(secrets).toHaveLength(7);
    for (const secret of secrets) expect(output).not.toContain(secret);
    neverLogged.push(...secrets);
  });

  it('have one line per request, with its id, method, redacted URL, status and time', async () => {
    const { server } = shared;
    const inject = server.app.http.inject.bind(server.app.http);
    await inject({ method: 'GET', url: '/api/v10/gateway?token=sekrit-token' });
    await inject({ method: 'GET', url: '/api/v10/users/@me' });
    await inject({ method: 'POST', url: '/api/v10/interactions/1/sekrit-interaction/callback' });
    await inject({ method: 'GET', url: '/api/v10/webhooks/1/sekrit-webhook?wait=true' });
    const output = logged();
    // The lines a logger at info writes (the server's, at trace, writes why a request was refused
    // too, at debug).
    const lines = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['reqId'] !== undefined && Number(line['level']) >= 30);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        reqId: expect.any(String) as string,
        method: 'GET',
        url: '/api/v10/gateway?token=[REDACTED]',
        statusCode: 200,
        responseTime: expect.any(Number) as number,
      }),
      expect.objectContaining({
        msg: 'request completed',
        url: '/api/v10/users/@me',
        statusCode: 401,
      }),
      expect.objectContaining({ url: '/api/v10/interactions/1/[REDACTED]/callback' }),
      expect.objectContaining({ url: '/api/v10/webhooks/1/[REDACTED]?wait=true' }),
    ]);
    expect(lines[0]?.['reqId']).not.toBe(lines[1]?.['reqId']);
    expect(output).not.toMatch(/sekrit/);
  });

  it("write the request line as pino's own formatter would", () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const line = {
      reqId: 'a1b2c3d4-z',
      method: 'GET',
      url: '/api/v10/oauth2/token?code=sekrit&state="quoted"\\',
      statusCode: 200,
      responseTime: 0.412,
      ip: '::ffff:127.0.0.1',
    };
    requestLineWriter(logger)(line);
    logger.info(line, 'request completed');
    requestLineWriter(logger)({ ...line, ip: undefined });
    logger.info({ ...line, ip: undefined }, 'request completed');
    // Byte for byte, but for the time; and valid JSON.
    const withoutTime = (text: string | undefined) => {
      expect(JSON.parse(text ?? '')).toHaveProperty('time');
      return text?.replace(/"time":\d+/, '"time":0');
    };
    expect(lines).toHaveLength(4);
    expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]));
    expect(withoutTime(lines[2])).toBe(withoutTime(lines[3]));
    expect(lines[0]).toContain('code=[REDACTED]');
    expect(lines[0]).not.toContain('sekrit');
    logger.level = 'warn';
    requestLineWriter(logger)(line);
    expect(lines).toHaveLength(4);
  });

  it("writes a fixed-shape info line as pino's own formatter would", () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const child = logger.child({ node: 'n1' });
    const fields = {
      applicationId: '123',
      method: 'GET',
      path: '/a "quoted"\\path é',
      statusCode: null,
      responseTime: 1.25,
    };
    const keys = ['applicationId', 'method', 'path', 'statusCode', 'responseTime'] as const;
    infoLineWriter(child, 'activity request completed', keys)(fields);
    child.info(fields, 'activity request completed');
    const withoutTime = (text: string | undefined) => {
      expect(JSON.parse(text ?? '')).toHaveProperty('time');
      return text?.replace(/"time":\d+/, '"time":0');
    };
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]));
    logger.level = 'warn';
    infoLineWriter(child, 'activity request completed', keys)(fields);
    expect(lines).toHaveLength(2);
    // A field that may hold a secret is never written unredacted.
    expect(() => infoLineWriter(logger, 'x', ['token'])).toThrow(/secret/);
  });

  it("never carry a device flow's user_code or device_code", async () => {
    const { server } = shared;
    const codes: string[] = [];
    const seed = await seedDeveloper(server.app, uniqueName('device'));
    await server.app.storage.applications.update(seed.applicationId, {
      deviceFlowEnabled: true,
    });
    const inject = server.app.http.inject.bind(server.app.http);
    const started = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/device/authorize',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${seed.applicationId}:${seed.clientSecret}`).toString('base64')}`,
      },
      payload: 'scope=identify',
    });
    expect(started.statusCode).toBe(200);
    const device = started.json<{ user_code: string; device_code: string }>();
    codes.push(device.user_code, device.user_code.replace('-', ''), device.device_code);
    const cookie = `guildhall_session=${seed.userToken}`;
    // The browser page with the code in its query, as verification_uri_complete sends it.
    const page = await inject({
      method: 'GET',
      url: `/activate?user_code=${device.user_code}`,
      headers: { cookie },
    });
    expect(page.statusCode).toBe(200);
    const verified = await inject({
      method: 'POST',
      url: '/api/v10/oauth2/device/verify',
      headers: { authorization: seed.userToken },
      payload: { user_code: device.user_code, authorize: true },
    });
    expect(verified.statusCode).toBe(200);
    server.app.logger.info({ user_code: device.user_code, device_code: device.device_code }, 'x');
    const output = logged();
    expect(output).toContain('/activate?user_code=[REDACTED]');
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(output).not.toContain(code);
    neverLogged.push(...codes);
  });
});
