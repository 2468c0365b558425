import { describe, expect, it } from 'vitest';
import { CONFIG_HELP, ConfigError, loadConfig, publicBaseUrl, roleServes } from './config.js';

describe('loadConfig', () => {
  it('defaults to 127.0.0.1:8080, SQLite in ./data, rate limits on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: null,
      natsUrl: null,
      workerId: null,
      rateLimits: true,
      globalRateLimitPerSecond: 50,
      demo: true,
    });
    expect(config.dataDir).toBe(`${process.cwd()}/data`);
  });

  it('reads the environment, and a flag wins over its variable', () => {
    const config = loadConfig(
      {
        GUILDHALL_PORT: '9000',
        GUILDHALL_RATE_LIMITS: 'off',
        DATABASE_URL: 'postgres://u@db/x',
        NATS_URL: 'nats://127.0.0.1:4222',
      },
      ['start', '--port', '9001', '--worker-id=3', '--no-demo'],
    );
    expect(config).toMatchObject({
      port: 9001,
      rateLimits: false,
      databaseUrl: 'postgres://u@db/x',
      natsUrl: 'nats://127.0.0.1:4222',
      workerId: 3,
      demo: false,
    });
  });

  it.each([
    [
      { GUILDHALL_PORT: 'eighty' },
      [],
      'GUILDHALL_PORT must be an integer from 0 to 65535 (0 picks a free port); got "eighty".',
    ],
    [
      {},
      ['--port', '70000'],
      '--port must be an integer from 0 to 65535 (0 picks a free port); got "70000".',
    ],
    [{ DATABASE_URL: 'mysql://x' }, [], 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ GUILDHALL_WORKER_ID: '32' }, [], 'GUILDHALL_WORKER_ID must be an integer from 0 to 31'],
    [
      { GUILDHALL_LOG_LEVEL: 'loud' },
      [],
      'GUILDHALL_LOG_LEVEL must be one of fatal, error, warn, info',
    ],
    [{ GUILDHALL_RATE_LIMITS: 'maybe' }, [], 'GUILDHALL_RATE_LIMITS must be on or off'],
  ])('refuses %o %o with one line naming the setting', (env, argv, message) => {
    expect(() => loadConfig(env, argv)).toThrow(ConfigError);
    expect(() => loadConfig(env, argv)).toThrow(message);
    try {
      loadConfig(env, argv);
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('reads the NATS subject prefix and how long NATS keeps dispatches', () => {
    expect(loadConfig({})).toMatchObject({
      natsSubjectPrefix: 'guildhall.',
      natsHistorySeconds: 360,
    });
    expect(
      loadConfig({ GUILDHALL_NATS_PREFIX: 'eu-1.guildhall.', GUILDHALL_NATS_HISTORY_SECONDS: '0' }),
    ).toMatchObject({ natsSubjectPrefix: 'eu-1.guildhall.', natsHistorySeconds: 0 });
    for (const bad of ['guildhall', 'a..', '.a.', 'a*.', 'a b.', `${'x'.repeat(64)}.`]) {
      expect(() => loadConfig({ GUILDHALL_NATS_PREFIX: bad })).toThrow(
        'GUILDHALL_NATS_PREFIX must be dot-separated tokens',
      );
    }
    expect(() => loadConfig({ GUILDHALL_NATS_HISTORY_SECONDS: '86401' })).toThrow(
      'GUILDHALL_NATS_HISTORY_SECONDS must be an integer from 0 to 86400',
    );
  });

  it('reads the default route bucket and the proxy setting, and masks passwords it echoes', () => {
    expect(
      loadConfig({ GUILDHALL_ROUTE_RATE_LIMIT: '10/2.5', GUILDHALL_TRUST_PROXY: 'on' }),
    ).toMatchObject({
      routeRateLimit: { limit: 10, windowMs: 2500 },
      trustProxy: true,
    });
    expect(loadConfig({ GUILDHALL_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ GUILDHALL_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ GUILDHALL_TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(
      loadConfig({ GUILDHALL_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    for (const bad of ['10.0.0.0/33', '300.1.1.1', 'proxy.example', '10.0.0.0/8,', '-1']) {
      expect(() => loadConfig({ GUILDHALL_TRUST_PROXY: bad })).toThrow('GUILDHALL_TRUST_PROXY');
    }
    expect(() => loadConfig({ GUILDHALL_ROUTE_RATE_LIMIT: 'fast' })).toThrow('REQUESTS/SECONDS');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).toThrow(
      'mysql://root:***@db/x',
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).not.toThrow('hunter2');
  });

  it('reads a listen address of its own for /metrics', () => {
    expect(loadConfig({}).metricsListen).toBeNull();
    expect(loadConfig({ GUILDHALL_METRICS_LISTEN: '127.0.0.1:9464' }).metricsListen).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({}, ['--metrics-listen', '[::1]:0']).metricsListen).toEqual({
      host: '::1',
      port: 0,
    });
    for (const bad of ['9464', '127.0.0.1:', '127.0.0.1:70000', 'http://x:1', '::1:9464']) {
      expect(() => loadConfig({ GUILDHALL_METRICS_LISTEN: bad }), bad).toThrow(
        /^GUILDHALL_METRICS_LISTEN must be HOST:PORT/,
      );
    }
  });

  it("reads auto-moderation's CPU budget per message", () => {
    expect(loadConfig({}).autoModerationBudgetMs).toBe(50);
    expect(loadConfig({ GUILDHALL_AUTOMOD_BUDGET_MS: '200' }).autoModerationBudgetMs).toBe(200);
    expect(loadConfig({}, ['--automod-budget-ms', '5']).autoModerationBudgetMs).toBe(5);
    for (const bad of ['0', '10001', '50ms', '-1']) {
      expect(() => loadConfig({ GUILDHALL_AUTOMOD_BUDGET_MS: bad }), bad).toThrow(
        /^GUILDHALL_AUTOMOD_BUDGET_MS must be an integer from 1 to 10000/,
      );
    }
  });

  it('reads the Redis URL and key prefix, and never echoes a bad URL', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: null, redisKeyPrefix: 'guildhall:' });
    expect(
      loadConfig({ REDIS_URL: 'rediss://app:pw@cache:6380/2' }, ['--redis-prefix', 'eu-1:']),
    ).toMatchObject({ redisUrl: 'rediss://app:pw@cache:6380/2', redisKeyPrefix: 'eu-1:' });
    for (const bad of ['http://app:hunter2@cache', 'app:hunter2@cache:6379', 'hunter2']) {
      let message = '';
      try {
        loadConfig({ REDIS_URL: bad });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(
        'REDIS_URL must be a redis:// or rediss:// URL, the same on every node (unset: limits and presences in this process\'s memory); got "[hidden]".',
      );
    }
    for (const bad of ['a b', 'x'.repeat(65), 'pre/fix']) {
      expect(() => loadConfig({}, ['--redis-prefix', bad])).toThrow(/^--redis-prefix must be/);
    }
  });

  it('reads where traces go, off by default', () => {
    expect(loadConfig({}).otlpEndpoint).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).otlpEndpoint).toBe(
      'http://127.0.0.1:4318',
    );
    expect(loadConfig({}, ['--otlp-endpoint', 'https://otel.internal']).otlpEndpoint).toBe(
      'https://otel.internal',
    );
    for (const bad of ['127.0.0.1:4318', 'grpc://collector:4317']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: bad })).toThrow(
        /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/,
      );
    }
  });

  it('reads the object storage settings, and refuses half a key pair', () => {
    expect(loadConfig({})).toMatchObject({
      blobBucket: null,
      s3Region: 'us-east-1',
      s3PathStyle: false,
    });
    const config = loadConfig(
      {
        GUILDHALL_BLOB_URL: 's3://guildhall-files/eu/prod/',
        GUILDHALL_S3_ENDPOINT: 'http://minio.internal:9000/',
        GUILDHALL_S3_ACCESS_KEY_ID: 'AKIA',
        GUILDHALL_S3_SECRET_ACCESS_KEY: 'shh',
      },
      ['--s3-path-style', '--s3-region', 'eu-west-1'],
    );
    expect(config).toMatchObject({
      blobBucket: { bucket: 'guildhall-files', prefix: 'eu/prod/' },
      s3Endpoint: 'http://minio.internal:9000',
      s3Region: 'eu-west-1',
      s3AccessKeyId: 'AKIA',
      s3SecretAccessKey: 'shh',
      s3PathStyle: true,
    });
    expect(loadConfig({ GUILDHALL_BLOB_URL: 's3://files' }).blobBucket).toEqual({
      bucket: 'files',
      prefix: '',
    });
    for (const bad of ['files', 's3://A_B/x', 's3://ab', 's3://files/../up', 'https://files/x']) {
      expect(() => loadConfig({ GUILDHALL_BLOB_URL: bad })).toThrow(
        /^GUILDHALL_BLOB_URL must be s3:\/\/BUCKET\/PREFIX/,
      );
    }
    expect(() => loadConfig({ GUILDHALL_S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(
      /^GUILDHALL_S3_ACCESS_KEY_ID and GUILDHALL_S3_SECRET_ACCESS_KEY must be set together/,
    );
    expect(CONFIG_HELP.join('\n')).toMatch(/--blob-url .*GUILDHALL_BLOB_URL .*s3:\/\/BUCKET/);
  });

  it('reads the TLS settings: a development certificate or a pair of files', () => {
    expect(loadConfig({})).toMatchObject({ tls: 'off', tlsCert: null, tlsKey: null });
    const dev = loadConfig({}, ['--tls', 'dev']);
    expect(dev.tls).toBe('dev');
    expect(publicBaseUrl(dev, 8443)).toBe('https://127.0.0.1:8443');
    const files = loadConfig({ GUILDHALL_TLS_CERT: '/etc/c.pem', GUILDHALL_TLS_KEY: '/etc/k.pem' });
    expect(publicBaseUrl(files, 443)).toBe('https://127.0.0.1:443');
    expect(() => loadConfig({}, ['--tls', 'on'])).toThrow(/^--tls must be off or dev/);
    expect(() => loadConfig({ GUILDHALL_TLS_CERT: '/etc/c.pem' })).toThrow(
      /^GUILDHALL_TLS_CERT and GUILDHALL_TLS_KEY must be set together/,
    );
    expect(() =>
      loadConfig({ GUILDHALL_TLS: 'dev', GUILDHALL_TLS_CERT: 'c', GUILDHALL_TLS_KEY: 'k' }),
    ).toThrow(/^GUILDHALL_TLS=dev makes a development certificate/);
    expect(CONFIG_HELP.join('\n')).toMatch(/--tls-cert .*GUILDHALL_TLS_CERT/);
  });

  it('builds the public URL from the listening address', () => {
    const PLAIN = { tls: 'off', tlsCert: null } as const;
    expect(publicBaseUrl({ ...PLAIN, publicUrl: null, host: '0.0.0.0' }, 1234)).toBe(
      'http://127.0.0.1:1234',
    );
    expect(publicBaseUrl({ ...PLAIN, publicUrl: null, host: '::1' }, 1)).toBe('http://[::1]:1');
    expect(publicBaseUrl({ ...PLAIN, publicUrl: 'https://gh.example', host: '127.0.0.1' }, 1)).toBe(
      'https://gh.example',
    );
  });

  it('reads the voice node settings, their defaults worked out from the API listener', () => {
    expect(loadConfig({})).toMatchObject({
      voicePort: 8081,
      voiceHost: '127.0.0.1',
      voiceEndpoint: '127.0.0.1:8081',
      voicePublicIp: '127.0.0.1',
      voiceTlsCert: null,
      voiceTlsKey: null,
      voiceMaxMembers: 99,
      voiceMaxPacketBytes: 1400,
    });
    expect(loadConfig({ GUILDHALL_PORT: '9000', GUILDHALL_HOST: '0.0.0.0' })).toMatchObject({
      voicePort: 9001,
      voiceHost: '0.0.0.0',
      voiceEndpoint: '127.0.0.1:9001',
      voicePublicIp: '127.0.0.1',
    });
    expect(loadConfig({ GUILDHALL_PORT: '0' })).toMatchObject({
      voicePort: 0,
      voiceEndpoint: '127.0.0.1:0',
    });
    expect(loadConfig({ GUILDHALL_HOST: '::' })).toMatchObject({
      voiceHost: '0.0.0.0',
      voiceEndpoint: '127.0.0.1:8081',
    });
    // The relay is IPv4: an API on IPv6 loopback has its voice node on IPv4's.
    expect(loadConfig({ GUILDHALL_HOST: '::1' })).toMatchObject({
      voiceHost: '127.0.0.1',
      voiceEndpoint: '127.0.0.1:8081',
      voicePublicIp: '127.0.0.1',
    });
    expect(loadConfig({ GUILDHALL_VOICE_HOST: '::1' }, ['--role', 'api'])).toMatchObject({
      voiceEndpoint: '[::1]:8081',
    });
    expect(
      loadConfig({}, [
        '--voice-port=7000',
        '--voice-host=10.0.0.5',
        '--voice-tls-cert=/etc/voice.pem',
        '--voice-tls-key=/etc/voice.key',
        '--voice-max-members=25',
        '--voice-max-packet-bytes=1200',
      ]),
    ).toMatchObject({
      voicePort: 7000,
      voiceHost: '10.0.0.5',
      voiceEndpoint: '10.0.0.5:7000',
      voicePublicIp: '10.0.0.5',
      voiceTlsCert: '/etc/voice.pem',
      voiceTlsKey: '/etc/voice.key',
      voiceMaxMembers: 25,
      voiceMaxPacketBytes: 1200,
    });
    expect(
      loadConfig({
        GUILDHALL_VOICE_ENDPOINT: 'voice-1.example.com:443',
        GUILDHALL_VOICE_PUBLIC_IP: '203.0.113.7',
      }),
    ).toMatchObject({ voiceEndpoint: 'voice-1.example.com:443', voicePublicIp: '203.0.113.7' });
    expect(loadConfig({ GUILDHALL_VOICE_ENDPOINT: 'localhost:9999' }).voicePublicIp).toBe(
      '127.0.0.1',
    );
  });

  it.each([
    [{ GUILDHALL_VOICE_PORT: '65536' }, 'GUILDHALL_VOICE_PORT must be an integer from 0 to 65535'],
    [{ GUILDHALL_VOICE_ENDPOINT: 'wss://x:1' }, 'GUILDHALL_VOICE_ENDPOINT must be HOST:PORT'],
    [{ GUILDHALL_VOICE_ENDPOINT: 'x:0' }, 'GUILDHALL_VOICE_ENDPOINT must be HOST:PORT'],
    [{ GUILDHALL_VOICE_PUBLIC_IP: '::1' }, 'GUILDHALL_VOICE_PUBLIC_IP must be an IPv4 address'],
    [{ GUILDHALL_VOICE_MAX_MEMBERS: '1' }, 'GUILDHALL_VOICE_MAX_MEMBERS must be an integer from 2'],
    [{ GUILDHALL_VOICE_MAX_PACKET_BYTES: '70000' }, 'GUILDHALL_VOICE_MAX_PACKET_BYTES must be'],
    [{ GUILDHALL_VOICE_TLS_CERT: '/a.pem' }, 'must be set together'],
    [{ GUILDHALL_PORT: '65535' }, 'GUILDHALL_VOICE_PORT must be set when GUILDHALL_PORT is 65535'],
    [
      { GUILDHALL_VOICE_ENDPOINT: 'voice.example.com:443' },
      'GUILDHALL_VOICE_PUBLIC_IP must be set',
    ],
  ])('refuses the voice settings %o of a node that serves voice', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
    expect(() => loadConfig({ ...env, GUILDHALL_ROLE: 'voice' })).toThrow(message);
  });

  it('leaves the voice node settings unchecked for the roles that run no voice node', () => {
    for (const role of ['api', 'gateway']) {
      expect(loadConfig({ GUILDHALL_ROLE: role, GUILDHALL_PORT: '65535' }).voicePort).toBe(0);
      expect(loadConfig({ GUILDHALL_ROLE: role, GUILDHALL_VOICE_TLS_CERT: '/a' }).role).toBe(role);
      expect(
        loadConfig({ GUILDHALL_ROLE: role, GUILDHALL_VOICE_ENDPOINT: 'v.example.com:1' }),
      ).toMatchObject({ voiceEndpoint: 'v.example.com:1', voicePublicIp: '127.0.0.1' });
    }
    expect(() => loadConfig({ GUILDHALL_VOICE_PORT: '8080' })).toThrow(
      'GUILDHALL_VOICE_PORT must differ from GUILDHALL_PORT',
    );
    // A voice-only process has no API listener of its own on that port.
    expect(loadConfig({ GUILDHALL_ROLE: 'voice', GUILDHALL_VOICE_PORT: '8080' }).voicePort).toBe(
      8080,
    );
  });

  it('has a voice role, which all includes', () => {
    expect(loadConfig({ GUILDHALL_ROLE: 'voice' }).role).toBe('voice');
    expect(() => loadConfig({ GUILDHALL_ROLE: 'media' })).toThrow(
      'GUILDHALL_ROLE must be one of all, api, gateway, voice',
    );
    expect(['api', 'gateway', 'voice'].map((p) => roleServes('all', p as 'voice'))).toEqual([
      true,
      true,
      true,
    ]);
    expect(roleServes('voice', 'voice')).toBe(true);
    expect(roleServes('voice', 'gateway')).toBe(false);
    expect(roleServes('gateway', 'voice')).toBe(false);
    expect(roleServes('api', 'api')).toBe(true);
  });

  it('documents every voice flag in --help', () => {
    const help = CONFIG_HELP.join('\n');
    for (const flag of [
      '--voice-port',
      '--voice-host',
      '--voice-endpoint',
      '--voice-public-ip',
      '--voice-tls-cert',
      '--voice-tls-key',
      '--voice-max-members',
      '--voice-max-packet-bytes',
    ]) {
      expect(help).toContain(flag);
    }
  });
});
