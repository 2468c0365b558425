import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import {
  activityFrameSource,
  activityHostProblem,
  activityOrigin,
  activitySuffix,
  clientOrigins,
  matchActivityHost,
} from './proxyHost.js';

const APP = '1234567890123456789';

describe('activity origins', () => {
  it('default to {application_id}.activities.localhost on http and the listening port', () => {
    const config = loadConfig({});
    expect(config.activityHost).toBe('{application_id}.activities.localhost');
    expect(config.activityAllowLoopback).toBe(false);
    expect(activityOrigin(config, 3000, APP)).toBe(`http://${APP}.activities.localhost:3000`);
    expect(activityFrameSource(config, 3000)).toBe('http://*.activities.localhost:3000');
  });

  it('take the scheme and port of the public URL', () => {
    const https = loadConfig({
      GUILDHALL_PUBLIC_URL: 'https://chat.example.com',
      GUILDHALL_ACTIVITY_HOST: '{application_id}.activities.example.com',
    });
    expect(activityOrigin(https, 8080, APP)).toBe(`https://${APP}.activities.example.com`);
    const withPort = loadConfig({}, [
      '--public-url',
      'http://chat.test:9000/',
      '--activity-host',
      '{application_id}.Apps.Chat.Test',
      '--activity-allow-loopback',
    ]);
    expect(withPort.activityAllowLoopback).toBe(true);
    expect(activityOrigin(withPort, 8080, APP)).toBe(`http://${APP}.apps.chat.test:9000`);
    expect(activityFrameSource(withPort, 8080)).toBe('http://*.apps.chat.test:9000');
  });

  it.each([
    'activities.localhost',
    'app-{application_id}.example.com',
    '{application_id}',
    '{application_id}.',
    '{application_id}.exa_mple.com',
    '{application_id}.example.com:8080',
    '{application_id}.-bad.com',
  ])('refuse the pattern %s', (pattern) => {
    expect(activityHostProblem(pattern)).not.toBeNull();
    expect(() => loadConfig({ GUILDHALL_ACTIVITY_HOST: pattern })).toThrow(ConfigError);
  });
});

describe('matchActivityHost', () => {
  const suffix = activitySuffix(loadConfig({}));

  it.each([
    [`${APP}.activities.localhost:8080`, APP],
    [`${APP}.ACTIVITIES.localhost`, APP],
    [`${APP}.activities.localhost.:80`, APP],
  ])('names the application of %s', (host, id) => {
    expect(matchActivityHost(suffix, host)).toEqual({ kind: 'activity', applicationId: id });
  });

  it.each([
    'activities.localhost',
    'www.activities.localhost',
    `0${APP}.activities.localhost`,
    `a.${APP}.activities.localhost`,
    '123456789012345678901.activities.localhost',
  ])('claims %s for no application', (host) => {
    expect(matchActivityHost(suffix, host)).toEqual({ kind: 'unknown' });
  });

  it.each([
    undefined,
    '127.0.0.1:8080',
    'localhost',
    `${APP}.activities.localhost.evil.test`,
    `${APP}.activities.localhost@evil.test`,
    `evil.test/${APP}.activities.localhost`,
    'xactivities.localhost',
    '[::1]:8080',
  ])('leaves %s to the API', (host) => {
    expect(matchActivityHost(suffix, host)).toEqual({ kind: 'api' });
  });
});

describe('clientOrigins', () => {
  it('is the public URL when there is one', () => {
    const config = loadConfig({ GUILDHALL_PUBLIC_URL: 'https://chat.example.com/' });
    expect(clientOrigins(config, 8080)).toEqual(['https://chat.example.com']);
  });

  it('names a loopback listener every way a browser may', () => {
    expect(clientOrigins(loadConfig({}), 8080)).toEqual([
      'http://127.0.0.1:8080',
      'http://localhost:8080',
    ]);
    // CSP has no IPv6 literal sources: browsers would ignore them.
    expect(clientOrigins(loadConfig({ GUILDHALL_HOST: '::1' }), 8080)).toEqual([
      'http://localhost:8080',
      'http://127.0.0.1:8080',
    ]);
    expect(clientOrigins(loadConfig({ GUILDHALL_HOST: '10.1.2.3' }), 81)).toEqual([
      'http://10.1.2.3:81',
    ]);
  });
});
