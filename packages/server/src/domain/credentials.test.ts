import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateSigningKeyPair,
  generateToken,
  hashPassword,
  hashSecret,
  passwordNeedsRehash,
  verifyPassword,
} from './credentials.js';

describe('credentials', () => {
  it('makes tokens whose first part is the user id and that never repeat', () => {
    const a = generateToken('1234567890123456789', Date.UTC(2026, 0, 1));
    const b = generateToken('1234567890123456789', Date.UTC(2026, 0, 1));
    expect(a).not.toBe(b);
    const [idPart, , secret] = a.split('.');
    expect(Buffer.from(idPart ?? '', 'base64url').toString()).toBe('1234567890123456789');
    expect(Buffer.from(secret ?? '', 'base64url')).toHaveLength(32);
    expect(hashSecret(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(a)).not.toBe(hashSecret(b));
  });

  it("verifies the right password only, hashed by default at OWASP's scrypt cost", async () => {
    // The one hash at the default cost (2^17, 128 MiB): it proves maxmem is raised enough.
    const stored = await hashPassword('correct horse battery staple');
    expect(stored.startsWith('scrypt$131072$8$1$')).toBe(true);
    expect(passwordNeedsRehash(stored, { log2N: 17, r: 8, p: 1 })).toBe(false);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse battery stapler', stored)).resolves.toBe(false);
    await expect(verifyPassword('x', 'plain$text')).resolves.toBe(false);
  });

  it('keeps the cost with the hash and tells an older cost apart', async () => {
    const cheap = { log2N: 10, r: 8, p: 1 };
    const stored = await hashPassword('pw', cheap);
    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    await expect(verifyPassword('pw', stored)).resolves.toBe(true);
    expect(passwordNeedsRehash(stored, cheap)).toBe(false);
    expect(passwordNeedsRehash(stored, { log2N: 17, r: 8, p: 1 })).toBe(true);
    expect(passwordNeedsRehash('plain$text', cheap)).toBe(true);
    // A damaged row naming a huge cost is refused, not run.
    const huge = stored.replace('scrypt$1024$', `scrypt$${2 ** 30}$`);
    await expect(verifyPassword('pw', huge)).resolves.toBe(false);
  });

  it('makes a key pair whose verify_key checks signatures made with the signing key', () => {
    const { verifyKey, signingKey } = generateSigningKeyPair();
    expect(verifyKey).toMatch(/^[0-9a-f]{64}$/);
    const privateKey = createPrivateKey({
      key: Buffer.from(signingKey, 'base64'),
      format: 'der',
      type: 'pkcs8',
    });
    const message = Buffer.from('1700000000{"type":1}');
    const signature = sign(null, message, privateKey);
    const publicKey = createPublicKey({
      key: Buffer.concat([
        Buffer.from('302a300506032b6570032100', 'hex'),
        Buffer.from(verifyKey, 'hex'),
      ]),
      format: 'der',
      type: 'spki',
    });
    expect(verify(null, message, publicKey, signature)).toBe(true);
    expect(verify(null, Buffer.from('tampered'), publicKey, signature)).toBe(false);
  });
});
