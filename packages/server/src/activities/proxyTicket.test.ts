/**
 * The proxy ticket's format and where the proxy host finds one (proxyTicket.ts, proxyAuth.ts),
 * without a server: what is read as a ticket, what is refused before any signature is checked,
 * and which Referers may carry one.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ticketOf } from './proxyAuth.js';
import {
  proxyAuthHeaders,
  readProxyTicket,
  signProxyTicket,
  ticketSignedBy,
  verifyKeyObject,
} from './proxyTicket.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signingKey = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
const verifyKeyHex = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString(
  'hex',
);
const PAYLOAD = {
  application_id: '1100',
  user_id: '2200',
  created_at: 1_700_000_000,
  expires_at: 1_700_003_600,
};

describe('the proxy ticket', () => {
  it('reads back what was signed, checked with the public key', () => {
    const ticket = signProxyTicket(PAYLOAD, signingKey);
    const read = readProxyTicket(ticket);
    expect(read?.payload).toEqual(PAYLOAD);
    if (read === null) throw new Error('not read');
    expect(ticketSignedBy(read, verifyKeyObject(verifyKeyHex))).toBe(true);
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(ticketSignedBy(read, other)).toBe(false);
    const headers = proxyAuthHeaders(read);
    expect(headers['x-signature-timestamp']).toBe('1700000000');
    expect(
      JSON.parse(Buffer.from(headers['x-discord-proxy-payload'] ?? '', 'base64').toString()),
    ).toEqual(PAYLOAD);
    expect(Buffer.from(headers['x-signature-ed25519'] ?? '', 'base64')).toHaveLength(64);
  });

  it('is refused unread when it is not one', () => {
    const ticket = signProxyTicket(PAYLOAD, signingKey);
    const [payload = '', signature = ''] = ticket.split('.');
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const bad of [
      '',
      payload,
      `${ticket}.x`,
      `.${signature}`,
      `${payload}.${signature.slice(4)}`,
      `${Buffer.from('not json').toString('base64url')}.${signature}`,
      `${encode([1])}.${signature}`,
      `${encode({ ...PAYLOAD, user_id: 'me' })}.${signature}`,
      `${encode({ ...PAYLOAD, application_id: 7 })}.${signature}`,
      `${encode({ ...PAYLOAD, created_at: -1 })}.${signature}`,
      `${encode({ ...PAYLOAD, expires_at: 1.5 })}.${signature}`,
      `${'a'.repeat(1100)}.${signature}`,
    ]) {
      expect(readProxyTicket(bad), bad.slice(0, 60)).toBeNull();
    }
  });
});

describe('where a request carries its ticket', () => {
  const origin = 'http://1100.activities.localhost:8080';

  it('is its own query first, then its Referer on the same origin', () => {
    expect(
      ticketOf('/a?x=1&discord_proxy_ticket=own', `${origin}/?discord_proxy_ticket=page`, origin),
    ).toBe('own');
    expect(ticketOf('/a?x=1', `${origin}/?instance_id=i&discord_proxy_ticket=p%2Bq`, origin)).toBe(
      'p+q',
    );
    expect(ticketOf('/a', undefined, origin)).toBeNull();
    expect(ticketOf('/a?discord_proxy_ticket_x=1', `${origin}/`, origin)).toBeNull();
    // Another origin's page, one whose host only starts like it, and the bare origin: none.
    for (const referer of [
      'http://evil.test/?discord_proxy_ticket=t',
      `${origin}.evil.test/?discord_proxy_ticket=t`,
      `${origin}?discord_proxy_ticket=t`,
      `https://1100.activities.localhost:8080/?discord_proxy_ticket=t`,
    ]) {
      expect(ticketOf('/a', referer, origin), referer).toBeNull();
    }
  });
});
