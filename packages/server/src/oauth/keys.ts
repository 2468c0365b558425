import { randomUUID } from 'node:crypto';
import type { CryptoKey, JWK, KeyObject } from 'jose';
import type { Clock } from '../domain/clock.js';
import { SEALED_AS, type SecretBox } from '../domain/secretBox.js';
import type { Storage } from '../storage/index.js';

export const ID_TOKEN_ALG = 'RS256';
/** The size of the RSA keys ID tokens are signed with. */
const RSA_MODULUS_BITS = 2048;

/** An ID token key pair as JWKs (what {@link generateIdTokenKeyPair} makes). */
export interface IdTokenKeyPair {
  publicJwk: JWK;
  privateJwk: JWK;
}

/** Makes an RS256 key pair for ID tokens (an RSA-2048 key: tens of milliseconds of CPU). */
export async function generateIdTokenKeyPair(): Promise<IdTokenKeyPair> {
  // jose is loaded with the first key: a server that signs no ID token never loads it.
  const { exportJWK, generateKeyPair } = await import('jose');
  const { publicKey, privateKey } = await generateKeyPair(ID_TOKEN_ALG, {
    extractable: true,
    modulusLength: RSA_MODULUS_BITS,
  });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey | KeyObject | Uint8Array;
  publicJwk: JWK;
}

/**
 * The ID token signing keys: an RS256 key pair (the API's JWKS schema is RSA) made on first use
 * and kept in the database so every node signs with it and verifiers can cache the JWKS. The
 * private half is stored sealed with the server's secret key (domain/secretBox.ts). Only the
 * public half is ever served; neither half is logged.
 */
export function createIdTokenKeys(deps: {
  storage: Storage;
  clock: Clock;
  secrets: SecretBox;
  /**
   * The key pair to store when the database has none, instead of making one (tests pass one made
   * once per run: making an RSA key costs each test server tens of milliseconds).
   */
  initialKey?: IdTokenKeyPair | undefined;
}) {
  let loaded: Promise<SigningKey[]> | undefined;

  const load = async (): Promise<SigningKey[]> => {
    const { importJWK } = await import('jose');
    let records = await deps.storage.oauth.listSigningKeys();
    if (records.length === 0) {
      const pair = deps.initialKey ?? (await generateIdTokenKeyPair());
      const kid = randomUUID();
      const record = {
        kid,
        alg: ID_TOKEN_ALG,
        publicJwk: JSON.stringify({ ...pair.publicJwk, kid }),
        privateJwk: deps.secrets.seal(
          JSON.stringify(pair.privateJwk),
          SEALED_AS.idTokenSigningKey(kid),
        ),
        createdAt: deps.clock.now(),
      };
      // Insert if absent, then re-read: a node that lost the race uses the winner's key.
      await deps.storage.transaction((tx) => tx.oauth.createSigningKeyIfNone(record));
      records = await deps.storage.oauth.listSigningKeys();
    }
    return Promise.all(
      records.map(async (record) => {
        const publicJwk = JSON.parse(record.publicJwk) as JWK;
        const privateJwk = deps.secrets.open(
          record.privateJwk,
          SEALED_AS.idTokenSigningKey(record.kid),
        );
        return {
          kid: record.kid,
          publicJwk: { ...publicJwk, kid: record.kid, alg: record.alg, use: 'sig' },
          privateKey: await importJWK(JSON.parse(privateJwk) as JWK, record.alg),
        };
      }),
    );
  };

  const keys = () => {
    loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    });
    return loaded;
  };

  return {
    /** The JWKS document (public keys only). */
    async jwks(): Promise<{ keys: JWK[] }> {
      return { keys: (await keys()).map((key) => key.publicJwk) };
    },

    /** Signs claims as a JWT with the newest key (`kid` in the header). */
    async sign(claims: Record<string, unknown>): Promise<string> {
      const all = await keys();
      const key = all[all.length - 1];
      if (key === undefined) throw new Error('no ID token signing key');
      const { SignJWT } = await import('jose');
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ID_TOKEN_ALG, kid: key.kid, typ: 'JWT' })
        .sign(key.privateKey);
    },
  };
}

export type IdTokenKeys = ReturnType<typeof createIdTokenKeys>;
