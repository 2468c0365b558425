import { describe, expect, it } from 'vitest';
import { apiBaseOf } from './platformApi.js';
import { socketDirectory, socketPath } from './socketPath.js';

describe('the IPC socket path', () => {
  it('uses the first of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP that is set, else /tmp', () => {
    expect(socketDirectory({ XDG_RUNTIME_DIR: '/run/user/1000', TMPDIR: '/var/t' })).toBe(
      '/run/user/1000',
    );
    expect(socketDirectory({ XDG_RUNTIME_DIR: '', TMPDIR: '/var/t/', TMP: '/x' })).toBe('/var/t');
    expect(socketDirectory({ TMP: '/x', TEMP: '/y' })).toBe('/x');
    expect(socketDirectory({ TEMP: '/y' })).toBe('/y');
    expect(socketDirectory({})).toBe('/tmp');
    expect(socketPath(3, { TMPDIR: '/var/t' }, 'linux')).toBe('/var/t/discord-ipc-3');
  });

  it('is a named pipe on Windows', () => {
    expect(socketPath(0, {}, 'win32')).toBe('\\\\?\\pipe\\discord-ipc-0');
  });
});

describe('the API base from --api-url', () => {
  it('accepts the platform address or its API URL, with or without a version', () => {
    expect(apiBaseOf('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/api/v10');
    expect(apiBaseOf('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/api/v10');
    expect(apiBaseOf('http://127.0.0.1:8080/api')).toBe('http://127.0.0.1:8080/api/v10');
    expect(apiBaseOf('https://chat.example/api/v9/')).toBe('https://chat.example/api/v9');
    expect(() => apiBaseOf('ftp://x')).toThrow(TypeError);
  });
});
