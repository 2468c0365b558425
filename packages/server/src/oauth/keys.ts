import { randomUUID } from 'node:crypto';
import type { CryptoKey, JWK, KeyObject } from 'jose';
import type { Clock } from '../domain/clock.js';
import { SEALED_AS, type SecretBox } from '../domain/secretBox.js';
import type { Repositories, OAuthSigningKeyRecord, Storage } from '../storage/index.js';

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
  /** The keys once loaded outside a transaction (what every later signature uses). */
  let ready: SigningKey[] | null = null;

  /**
   * Reads the keys through `repos`, making one when there is none (`store` inserts it if still
   * absent; the keys are read again, so a node that lost the race uses the winner's key).
   */
  const load = async (
    repos: Pick<Repositories, 'oauth'>,
    store: (record: OAuthSigningKeyRecord) => Promise<unknown>,
  ): Promise<SigningKey[]> => {
    const { importJWK } = await import('jose');
    let records = await repos.oauth.listSigningKeys();
    if (records.length === 0) {
      const pair = deps.initialKey ?? (await generateIdTokenKeyPair());
      const kid = randomUUID();
      await store({
        kid,
        alg: ID_TOKEN_ALG,
        publicJwk: JSON.stringify({ ...pair.publicJwk, kid }),
        privateJwk: deps.secrets.seal(
          JSON.stringify(pair.privateJwk),
          SEALED_AS.idTokenSigningKey(kid),
        ),
        createdAt: deps.clock.now(),
      });
      records = await repos.oauth.listSigningKeys();
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
    loaded ??= load(deps.storage, (record) =>
      deps.storage.transaction((tx) => tx.oauth.createSigningKeyIfNone(record)),
    ).then(
      (all) => (ready = all),
      (err: unknown) => {
        loaded = undefined;
        throw err;
      },
    );
    return loaded;
  };

  return {
    /** The JWKS document (public keys only). */
    async jwks(): Promise<{ keys: JWK[] }> {
      return { keys: (await keys()).map((key) => key.publicJwk) };
    },

    /**
     * Signs claims as a JWT with the newest key (`kid` in the header). The key is made at the
     * first use, not at start. Inside a transaction (`tx`), a first signature reads (or makes)
     * the key through that transaction: SQLite has one connection, which the transaction holds.
     * What it read is not kept (the transaction may roll back); the next use outside one keeps it.
     */
    async sign(claims: Record<string, unknown>, tx?: Pick<Repositories, 'oauth'>): Promise<string> {
      const all =
        ready ??
        (tx === undefined
          ? await keys()
          : await load(tx, (record) => tx.oauth.createSigningKeyIfNone(record)));
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
