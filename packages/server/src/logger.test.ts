import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { seedDeveloper, startTestServer } from '../test/support/testServer.js';
import { createLogger } from './logger.js';

describe('logs', () => {
  it('never carry tokens, secrets or passwords, at any level', async () => {
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const server = await startTestServer({ logger: createLogger('trace', sink) });
    const secrets = ['correct horse battery', 'sekrit-code', 'pw-in-log', 'hdr-in-log'];
    try {
      const seed = await seedDeveloper(server.app, 'logme');
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
        payload: { login: 'logme', password: 'correct horse battery' },
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
    } finally {
      await server.close();
    }
    expect(output).toContain('request completed');
    expect(output).toContain('[REDACTED]');
    expect(secrets).toHaveLength(7);
    for (const secret of secrets) expect(output).not.toContain(secret);
  });
});
