import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/support/webhookReceiver.js';
import { generateSigningKeyPair } from '../domain/credentials.js';
import { postSigned } from './post.js';
import { addressAllowed, guardedLookup, webhookUrlProblem } from './urlPolicy.js';

describe('the webhook URL policy', () => {
  it.each([
    ['https://hooks.example.com/events', false, null],
    ['https://93.184.216.34/events', false, null],
    ['http://hooks.example.com/events', false, 'it must use https'],
    ['https://user:pw@hooks.example.com/', false, 'it must not contain credentials'],
    ['https://localhost/events', false, 'local addresses are not allowed on this server'],
    ['https://127.0.0.1/events', false, 'local addresses are not allowed on this server'],
    ['https://10.0.0.8/', true, '10.0.0.8 is not a public address'],
    ['https://192.168.1.1/', true, '192.168.1.1 is not a public address'],
    ['https://169.254.169.254/', true, '169.254.169.254 is not a public address'],
    ['https://[fd00::1]/', true, 'fd00::1 is not a public address'],
    ['https://[::ffff:127.0.0.1]/', false, 'local addresses are not allowed on this server'],
    ['ftp://hooks.example.com/', true, 'it must use https (or http to a loopback address)'],
    ['http://127.0.0.1:8080/events', true, null],
    ['http://localhost:8080/events', true, null],
    ['http://[::1]:8080/events', true, null],
    ['not a url', true, 'it is not a well formed URL'],
  ])('%s (local allowed: %s)', (url, allowLocal, problem) => {
    expect(webhookUrlProblem(url, allowLocal)).toEqual(problem);
  });

  it('judges resolved addresses, IPv4-mapped ones as their IPv4 address', () => {
    expect(addressAllowed('8.8.8.8', false)).toBe(true);
    expect(addressAllowed('2606:4700::1111', false)).toBe(true);
    expect(addressAllowed('127.0.0.53', false)).toBe(false);
    expect(addressAllowed('127.0.0.53', true)).toBe(true);
    expect(addressAllowed('::ffff:10.0.0.1', true)).toBe(false);
    expect(addressAllowed('100.64.0.1', true)).toBe(false);
    expect(addressAllowed('fe80::1', true)).toBe(false);
  });

  it('refuses IPv6 outside global unicast and the ranges that carry IPv4', () => {
    for (const address of [
      '::7f00:1', // IPv4-compatible 127.0.0.1
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '2001:0:4136:e378::1', // Teredo
      '64:ff9b:1::a00:1', // local NAT64
      'fec0::1', // site-local
    ]) {
      expect(addressAllowed(address, true), address).toBe(false);
    }
    expect(addressAllowed('2a00:1450:4001:800::200e', false)).toBe(true);
  });

  it('refuses a host name that resolves to a loopback address unless local is allowed', async () => {
    const lookup = (allowLocal: boolean) =>
      new Promise<string>((resolve) => {
        guardedLookup(allowLocal)('localhost', { all: true }, (err, addresses) => {
          resolve(err ? err.message : JSON.stringify(addresses));
        });
      });
    expect(await lookup(false)).toBe(
      'localhost resolves to a non-public address, which is not allowed',
    );
    expect(await lookup(true)).toMatch(/127\.0\.0\.1|::1/);
  });
});

describe('signed POSTs through a host name', () => {
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
  });

  it('reach a loopback receiver by name only when local is allowed', async () => {
    receiver = await startWebhookReceiver();
    const url = receiver.url.replace('127.0.0.1', 'localhost');
    const post = { url, timestamp: 1, body: '{}', ...generateSigningKeyPair() };
    expect(await postSigned(post, { timeoutMs: 2000, allowLocal: true })).toMatchObject({
      status: 204,
      error: null,
    });
    expect(await postSigned(post, { timeoutMs: 2000, allowLocal: false })).toMatchObject({
      status: null,
      error: 'URL refused: it must use https',
    });
    expect(receiver.received).toHaveLength(1);
  });
});
