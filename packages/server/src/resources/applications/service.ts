import { isSnowflake } from '@guildhall/protocol';
import {
  generateClientSecret,
  generateSigningKeyPair,
  generateToken,
  hashSecret,
} from '../../domain/credentials.js';
import { SEALED_AS, type SecretBox } from '../../domain/secretBox.js';
import { systemEntropy, type Entropy } from '../../domain/seeded.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ApplicationRecord, Repositories, UserRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import type { CreateApplicationInput, ModifyApplicationInput } from './schemas.js';
import type { VerifyEventWebhooksUrl } from './eventWebhooks.js';
import type { InteractionsEndpoint } from '../interactions/index.js';
import { serializeApplication } from './serialize.js';
import { createApplicationAssets } from './assets.js';
import { createApplicationPatches } from './patch.js';
import { announceIntegrationUpdates } from '../integrations/index.js';

/** An application just made, with the two secrets that are shown once and stored only hashed. */
export interface CreatedApplication {
  application: ApplicationRecord;
  bot: UserRecord;
  botToken: string;
  clientSecret: string;
}

/** Discriminators run from 0001 to 9999. */
const MAX_DISCRIMINATOR = 9999;
const DISCRIMINATOR_DIGITS = 4;

function randomDiscriminator(entropy: Entropy): string {
  return String(1 + (entropy.bytes(4).readUInt32BE(0) % MAX_DISCRIMINATOR)).padStart(
    DISCRIMINATOR_DIGITS,
    '0',
  );
}

/** Whether a guild's integration of the app reads differently after the change. */
const showsOtherwise = (before: ApplicationRecord, after: ApplicationRecord) =>
  before.name !== after.name ||
  before.icon !== after.icon ||
  before.description !== after.description;

/** Applications: made by developers, each with a bot user, a bot token and a client secret. */
export function createApplicationService(
  deps: ServiceDeps & {
    webhookEvents: { verifyUrl: VerifyEventWebhooksUrl };
    /** Checks an interactions endpoint URL before it is kept (the platform's PING checks). */
    interactionsEndpoint: Pick<InteractionsEndpoint, 'verifyUrl'>;
    /** Seals the app's signing key before it is stored. */
    secrets: SecretBox;
    /** From this many users, privileged intents need a review (spec: 10,000; the gateway's). */
    privilegedIntentReviewThreshold: number;
  },
) {
  const { storage, clock, ids, blobs, revocations, secrets } = deps;
  const entropy = deps.entropy ?? systemEntropy;
  const patches = createApplicationPatches(deps);

  const view = async (application: ApplicationRecord) => {
    const [owner, bot] = await Promise.all([
      storage.users.findById(application.ownerId),
      application.botUserId === null ? null : storage.users.findById(application.botUserId),
    ]);
    if (owner === null) throw new Error(`application ${application.id} has no owner row`);
    const [guildCount, userCount, privateChannelObfuscation] = await Promise.all([
      bot === null ? 0 : storage.guilds.countForUser(bot.id),
      storage.applications.approximateUserCount(application.id),
      storage.gateway.privateChannelObfuscation(application.id),
    ]);
    return serializeApplication({
      application,
      owner,
      bot,
      guildCount,
      userCount,
      privateChannelObfuscation,
    });
  };

  /** The application the caller owns (session) or is the bot of (bot token). */
  const ownedApplication = async (principal: Principal, applicationId: string) => {
    const application = isSnowflake(applicationId)
      ? await storage.applications.findById(applicationId)
      : null;
    if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
    const allowed =
      principal.kind === 'session'
        ? application.ownerId === principal.user.id
        : principal.applicationId === application.id;
    if (!allowed) throw new ApiError('UNKNOWN_APPLICATION');
    return application;
  };

  const issueBotToken = async (
    tx: Repositories,
    application: ApplicationRecord,
    botUserId: string,
  ) => {
    const token = generateToken(botUserId, clock.now(), entropy);
    await tx.tokens.create({
      hash: hashSecret(token),
      kind: 'bot',
      userId: botUserId,
      applicationId: application.id,
      scopes: [],
      createdAt: clock.now(),
      expiresAt: null,
    });
    return token;
  };

  return {
    /** Rich presence assets (assets.ts). */
    assets: createApplicationAssets({ storage, clock, ids, blobs, owned: ownedApplication }),

    /**
     * Makes an application, its bot user (with the application's id) and bot token, in one
     * transaction.
     */
    async create(ownerId: string, input: CreateApplicationInput): Promise<CreatedApplication> {
      const clientSecret = generateClientSecret(entropy);
      return storage.transaction(async (tx) => {
        const owner = await tx.users.findById(ownerId);
        if (owner === null || owner.bot) throw new ApiError('UNKNOWN_USER');
        const now = clock.now();
        // The bot user has the application's id, as on the platform: libraries that read the
        // application id from the bot token's first segment then name the right application.
        const id = ids();
        const bot = await tx.users.create({
          id,
          username: input.name,
          discriminator: randomDiscriminator(entropy),
          bot: true,
          verified: true,
          createdAt: now,
        });
        const { verifyKey, signingKey } = generateSigningKeyPair(entropy);
        const application = await tx.applications.create({
          id,
          name: input.name,
          description: input.description ?? '',
          ownerId,
          botUserId: bot.id,
          verifyKey,
          signingKey: secrets.seal(signingKey, SEALED_AS.applicationSigningKey(id)),
          clientSecretHash: hashSecret(clientSecret),
          createdAt: now,
        });
        const botToken = await issueBotToken(tx, application, bot.id);
        return { application, bot, botToken, clientSecret };
      });
    },

    view,

    async list(principal: Principal) {
      const applications = await storage.applications.listByOwner(principal.user.id);
      return Promise.all(applications.map(view));
    },

    async get(principal: Principal, applicationId: string) {
      return view(await ownedApplication(principal, applicationId));
    },

    /** GET /applications/@me: the bot's own application. */
    async current(principal: Principal) {
      return view(await ownedApplication(principal, principal.applicationId ?? ''));
    },

    async modify(principal: Principal, applicationId: string, input: ModifyApplicationInput) {
      const application = await ownedApplication(principal, applicationId);
      const { patch, obfuscation } = await patches.patchOf(principal, application, input);
      const updated = await storage.transaction(async (tx) => {
        // The gateway reads the setting at IDENTIFY (gateway/handshake.ts).
        if (obfuscation !== undefined) {
          await tx.gateway.setPrivateChannelObfuscation(application.id, obfuscation);
        }
        const changed = await tx.applications.update(application.id, patch);
        if (changed !== null && showsOtherwise(application, changed)) {
          await announceIntegrationUpdates(tx, changed);
        }
        return changed;
      });
      if (updated === null) throw new ApiError('UNKNOWN_APPLICATION');
      return view(updated);
    },

    /** Replaces the client secret; the old one stops working at once. */
    async resetSecret(principal: Principal, applicationId: string) {
      const application = await ownedApplication(principal, applicationId);
      const secret = generateClientSecret(entropy);
      await storage.applications.update(application.id, { clientSecretHash: hashSecret(secret) });
      return { secret };
    },

    /** Replaces the bot token; every earlier bot token of the app is revoked in the same write. */
    async resetBotToken(principal: Principal, applicationId: string) {
      const application = await ownedApplication(principal, applicationId);
      const botUserId = application.botUserId;
      if (botUserId === null) throw new ApiError('UNKNOWN_USER');
      const token = await storage.transaction(async (tx) => {
        const revoked = await tx.tokens.deleteFor({ userId: botUserId, kind: 'bot' });
        // Once committed, the old token's gateway sessions close (4004) on every node.
        revocations.revoke(tx, { tokenHashes: revoked });
        return issueBotToken(tx, application, botUserId);
      });
      return { token };
    },
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
