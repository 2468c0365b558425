import { SECOND_MS } from '../../domain/time.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { IdentityProvider, IdentityTestKeyRecord } from '../../storage/index.js';
import type { ProvisionalDeps } from './deps.js';
import {
  checkPublicKey,
  signTestCredential,
  verifyTestCredential,
  type TestIdentity,
} from './testIdentity.js';

/**
 * The test-mode identity providers of applications (docs/provisional-accounts.md, Test identity
 * providers): registering a developer's public key for Steam, Epic Online Services, Unity, Apple
 * or PlayStation, and issuing credentials signed with its private key.
 */
export function createTestProviderService(deps: Pick<ProvisionalDeps, 'storage' | 'clock'>) {
  const { storage, clock } = deps;

  /** The application, when `ownerId` owns it (null: the operator, who may act on any). */
  const ownedApplication = async (applicationId: string, ownerId: string | null) => {
    const application = /^\d{1,20}$/.test(applicationId)
      ? await storage.applications.findById(applicationId)
      : null;
    if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
    if (ownerId !== null && application.ownerId !== ownerId) {
      throw new ApiError('UNKNOWN_APPLICATION');
    }
    return application;
  };

  const findTestKey = async (input: {
    applicationId: string;
    ownerId: string | null;
    provider: IdentityProvider;
  }): Promise<IdentityTestKeyRecord> => {
    const application = await ownedApplication(input.applicationId, input.ownerId);
    const key = await storage.provisional.findTestKey(application.id, input.provider);
    if (key === null) throw new ApiError('PROVISIONAL_ACCOUNTS_NOT_ENABLED');
    return key;
  };

  return {
    /** The test-mode providers of an application its owner (or the operator) lists. */
    async listTestKeys(input: { applicationId: string; ownerId: string | null }) {
      const application = await ownedApplication(input.applicationId, input.ownerId);
      return storage.provisional.listTestKeys(application.id);
    },

    findTestKey,

    /** Puts a provider of an application in test mode with the developer's public key. */
    async saveTestKey(input: {
      applicationId: string;
      ownerId: string | null;
      provider: IdentityProvider;
      publicKey: string;
    }): Promise<IdentityTestKeyRecord> {
      const application = await ownedApplication(input.applicationId, input.ownerId);
      const key = {
        applicationId: application.id,
        provider: input.provider,
        publicKey: checkPublicKey(input.publicKey),
        updatedAt: clock.now(),
      };
      await storage.transaction((tx) => tx.provisional.putTestKey(key));
      return key;
    },

    /** Ends a provider's test mode: its credentials answer 530000 again. */
    async deleteTestKey(input: {
      applicationId: string;
      ownerId: string | null;
      provider: IdentityProvider;
    }): Promise<boolean> {
      const application = await ownedApplication(input.applicationId, input.ownerId);
      return storage.transaction((tx) =>
        tx.provisional.deleteTestKey(application.id, input.provider),
      );
    },

    /**
     * `guildhall identity issue`: a credential for `subject` signed with the developer's private
     * key, checked against the key the application registered before it is handed out.
     * @throws ApiError 530000 when the provider is not in test mode, 50035 on `key` when the
     *   private key is unreadable or not the registered key's pair.
     */
    async issueTestCredential(input: {
      applicationId: string;
      provider: IdentityProvider;
      subject: string;
      preferredName: string | null;
      privateKeyPem: string;
      ttlSeconds: number;
    }): Promise<{ token: string; identity: TestIdentity; expiresAt: number }> {
      const key = await findTestKey({ ...input, ownerId: null });
      const now = clock.now();
      const token = await signTestCredential({ ...input, nowMs: now });
      let identity: TestIdentity;
      try {
        identity = await verifyTestCredential(token, key, clock);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        throw invalidField(
          ['key'],
          'BASE_TYPE_BAD_VALUE',
          `Not the private key of the public key registered for ${input.provider}`,
        );
      }
      return { token, identity, expiresAt: now + input.ttlSeconds * SECOND_MS };
    },
  };
}
