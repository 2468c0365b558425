import { describe, expect, it } from 'vitest';
import {
  activityCookies,
  activityCsp,
  activitySetCookie,
  forwardedRequestHeaders,
  returnedResponseHeaders,
} from './proxyHeaders.js';
import { redirectLocation, type ForwardRequest } from './proxyHttp.js';
import { longestMapping, parseTarget, requestPath, routeRequest } from './proxyRoute.js';

const SUFFIX = 'activities.localhost';

describe('requestPath', () => {
  it.each([
    ['/', '/', ''],
    ['/.proxy', '/', ''],
    ['/.proxy/', '/', ''],
    ['/.proxy/a/b?x=1', '/a/b', '?x=1'],
    ['/.proxyx/a', '/.proxyx/a', ''],
    ['/%41%7e%2D/%20?q=%2e%2e', '/A~-/%20', '?q=%2e%2e'],
    ['/a//b/', '/a//b/', ''],
  ])('%s is the path %s', (url, path, query) => {
    expect(requestPath(url)).toEqual({ ok: true, path, query });
  });

  it.each([
    'http://evil.test/',
    '*',
    'evil.test:443',
    '/a/../b',
    '/a/..',
    '/a/%2e%2e/b',
    '/a/.%2E/b',
    '/a/%2e/b',
    '/a%2fb',
    '/a%5Cb',
    '/a\\b',
    '/a%00',
    '/a%0a',
    '/a%7f',
    '/a%',
    '/a%g0',
    '/a b',
    '/a?x=\\y',
  ])('%s is refused', (url) => {
    expect(requestPath(url)).toMatchObject({ ok: false, status: 400 });
  });
});

describe('parseTarget', () => {
  it('reads host, port and path; loopback names are http, others https', () => {
    expect(parseTarget('127.0.0.1:5173', SUFFIX)).toEqual({
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 5173,
      hostHeader: '127.0.0.1:5173',
      basePath: '',
    });
    expect(parseTarget('API.Example.com/v1/', SUFFIX)).toEqual({
      protocol: 'https:',
      hostname: 'api.example.com',
      port: 443,
      hostHeader: 'api.example.com',
      basePath: '/v1',
    });
    expect(parseTarget('example.com:80/x', SUFFIX)).toMatchObject({
      protocol: 'https:',
      port: 80,
      hostHeader: 'example.com:80',
    });
    expect(parseTarget('[::1]:3001', SUFFIX)).toMatchObject({
      protocol: 'http:',
      hostname: '::1',
      hostHeader: '[::1]:3001',
    });
    expect(parseTarget('localhost', SUFFIX)).toMatchObject({ protocol: 'http:', port: 80 });
    // A scheme written is the scheme used (activities/config.ts accepts http:// and https://).
    expect(parseTarget('HTTP://example.com:8080/x', SUFFIX)).toMatchObject({
      protocol: 'http:',
      port: 8080,
      basePath: '/x',
    });
    expect(parseTarget('https://127.0.0.1:8443', SUFFIX)).toMatchObject({
      protocol: 'https:',
      port: 8443,
    });
  });

  it.each([
    'user:pw@example.com',
    'user@example.com',
    'ftp://example.com',
    'https://',
    'https://user@example.com',
    '//example.com',
    'example.com?x=1',
    'example.com#x',
    'example.com/a/../b',
    'example.com/%2e%2e/b',
    'example.com/a%2fb',
    'example.com:0',
    'example.com:65536',
    'exa mple.com',
    'exa_mple.com',
    '[not-v6]:80',
    '',
    `1234.${SUFFIX}`,
    `${SUFFIX}:8080`,
  ])('refuses %j', (target) => {
    expect(parseTarget(target, SUFFIX)).toBeNull();
  });
});

describe('routeRequest', () => {
  const mappings = [
    { prefix: '/', target: 'root.example.com' },
    { prefix: '/api/', target: 'api.example.com/v1' },
    { prefix: '/api/admin', target: 'admin.example.com' },
  ];

  it('takes the longest prefix on segment boundaries', () => {
    expect(longestMapping(mappings, '/api')?.target).toBe('api.example.com/v1');
    expect(longestMapping(mappings, '/api/adminx')?.target).toBe('api.example.com/v1');
    expect(longestMapping(mappings, '/api/admin/x')?.target).toBe('admin.example.com');
    expect(longestMapping(mappings, '/apix')?.target).toBe('root.example.com');
    expect(longestMapping(mappings.slice(1), '/other')).toBeNull();
  });

  it("appends the rest of the path to the target's path", () => {
    expect(routeRequest(mappings, '/.proxy/api/token?x=1', SUFFIX)).toMatchObject({
      ok: true,
      prefix: '/api',
      path: '/v1/token?x=1',
    });
    expect(routeRequest(mappings, '/api', SUFFIX)).toMatchObject({ path: '/v1' });
    expect(routeRequest(mappings, '/api/admin', SUFFIX)).toMatchObject({ path: '/' });
    expect(routeRequest(mappings, '/', SUFFIX)).toMatchObject({ prefix: '', path: '/' });
  });

  it('answers 404 without an activity or a mapping, 502 for a bad target', () => {
    expect(routeRequest(null, '/', SUFFIX)).toMatchObject({ ok: false, status: 404 });
    expect(routeRequest(mappings.slice(1), '/x', SUFFIX)).toMatchObject({ status: 404 });
    expect(routeRequest([{ prefix: '/', target: 'a:b@c' }], '/', SUFFIX)).toMatchObject({
      status: 502,
    });
  });
});

describe('redirectLocation', () => {
  const request = {
    activityOrigin: 'http://42.activities.localhost:8080',
    prefix: '/api',
    target: parseTarget('127.0.0.1:5000/v1', SUFFIX),
  } as ForwardRequest;

  it.each([
    ['next', 'next'],
    ['/elsewhere?a=1', '/elsewhere?a=1'],
    ['http://42.activities.localhost:8080/x', 'http://42.activities.localhost:8080/x'],
    ['http://127.0.0.1:5000/v1/done?y#h', 'http://42.activities.localhost:8080/api/done?y#h'],
    ['http://127.0.0.1:5000/v1', 'http://42.activities.localhost:8080/api/'],
  ])('keeps %s as %s', (location, kept) => {
    expect(redirectLocation(location, request, '/api/login')).toBe(kept);
  });

  it.each([
    'http://evil.test/',
    '//evil.test/x',
    'https://42.activities.localhost:8080/x',
    'http://43.activities.localhost:8080/x',
    'http://127.0.0.1:5000/v2/x',
    'http://127.0.0.1:5001/v1/x',
    'javascript:alert(1)',
    'http://[bad',
  ])('refuses %s', (location) => {
    expect(redirectLocation(location, request, '/api/login')).toBeNull();
  });
});

describe('proxy headers', () => {
  it("forwards the activity's cookies only", () => {
    expect(activityCookies('guildhall_session=a; x=1;GUILDHALL_csrf=b; y=2')).toBe('x=1; y=2');
    expect(activityCookies('guildhall_session=a')).toBeUndefined();
    // The https names of the consent page's cookies too.
    expect(activityCookies('__Host-guildhall_session=a; x=1; __Host-guildhall_csrf=b')).toBe('x=1');
    expect(activityCookies('__Secure-guildhall_session=a; __Host-theme=dark')).toBe(
      '__Host-theme=dark',
    );
    expect(activityCookies(undefined)).toBeUndefined();
  });

  it('keeps Set-Cookie to the activity host', () => {
    expect(activitySetCookie('a=1; Domain=.localhost; Path=/; domain=x')).toBe('a=1; Path=/');
    expect(activitySetCookie('guildhall_session=x; Path=/')).toBeNull();
    expect(activitySetCookie('__Host-guildhall_session=x; Path=/; Secure')).toBeNull();
  });

  it('drops hop-by-hop headers both ways, and those the Connection header names', () => {
    const out = forwardedRequestHeaders(
      {
        host: '42.activities.localhost',
        connection: 'close, X-Private',
        'x-private': '1',
        te: 'trailers',
        expect: '100-continue',
        forwarded: 'for=6.6.6.6',
        'x-real-ip': '6.6.6.6',
        via: '1.0 edge',
        accept: 'text/html',
      },
      {
        targetHost: 'example.com',
        clientAddress: '10.0.0.9',
        proto: 'https',
        websocket: true,
        auth: null,
      },
    );
    expect(out).toEqual({
      accept: 'text/html',
      host: 'example.com',
      'x-forwarded-for': '10.0.0.9',
      'x-forwarded-host': '42.activities.localhost',
      'x-forwarded-proto': 'https',
      via: '1.0 edge, 1.1 guildhall-activities',
      connection: 'Upgrade',
      upgrade: 'websocket',
    });
    expect(
      returnedResponseHeaders(
        {
          'content-type': 'text/html',
          'transfer-encoding': 'chunked',
          connection: 'x-gone',
          'x-gone': '1',
          'alt-svc': 'h3=":443"',
          'content-security-policy-report-only': "default-src 'none'; report-uri https://x",
        },
        { websocket: false },
      ),
    ).toEqual({ 'content-type': 'text/html' });
  });

  it('lets only the web client frame the activity, and only its origin and the platform be reached', () => {
    const csp = activityCsp({
      activityOrigin: 'https://42.activities.example.com',
      clientOrigins: ['https://chat.example.com'],
      platformOrigin: 'https://chat.example.com',
    });
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain(
      "connect-src 'self' wss://42.activities.example.com https://chat.example.com/api/ data: blob:",
    );
    expect(csp).toContain('frame-ancestors https://chat.example.com');
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });
});
