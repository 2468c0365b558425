import { describe, expect, it } from 'vitest';
import { INVALID_VERSION_PATH, decodePathAscii, rewriteApiUrl } from './versioning.js';

describe('rewriteApiUrl', () => {
  it.each([
    ['/api/v10/users/@me', '/api/v10/users/@me'],
    ['/api/v9/users/@me?x=1', '/api/v10/users/@me?x=1'],
    ['/api/users/@me', '/api/v10/users/@me'],
    ['/api/v6/gateway', '/api/v10/gateway'],
    ['/api/v10', '/api/v10'],
    ['/api', '/api/v10'],
    ['/api?x=1', '/api/v10?x=1'],
    ['/api/v3/users/@me', INVALID_VERSION_PATH],
    ['/api/v5', INVALID_VERSION_PATH],
    ['/api/v11/users/@me', INVALID_VERSION_PATH],
    ['/apiary', '/apiary'],
    ['/healthz', '/healthz'],
    ['/api/version/x', '/api/v10/version/x'],
  ])('%s -> %s', (input, expected) => {
    expect(rewriteApiUrl(input)).toBe(expected);
  });
});

describe('decodePathAscii', () => {
  it.each([
    ['/api/v10/users/%40me', '/api/v10/users/@me'],
    ['/api/v10/users/%40me?q=%40', '/api/v10/users/@me?q=%40'],
    ['/a%2Fb/%3F/%25/%23', '/a%2Fb/%3F/%25/%23'],
    ['/emoji/%F0%9F%98%80', '/emoji/%F0%9F%98%80'],
    ['/x%00y', '/x%00y'],
  ])('%s -> %s', (input, expected) => {
    expect(decodePathAscii(input)).toBe(expected);
  });
});
