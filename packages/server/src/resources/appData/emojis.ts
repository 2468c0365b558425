/**
 * An application's own emojis (docs/applications.md#application-emojis): up to 2000 per
 * application, usable by its bot in every guild, managed with its bot token. Images go where
 * guild emoji images go (`emojis/{id}`), so the CDN path /emojis/{id}.{ext} serves them too.
 */
import { isSnowflake } from '@guildhall/protocol';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ApplicationEmojiRecord, Repositories } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { decodeImage, putImage } from '../imageUploads.js';
import { serializeUser } from '../users/index.js';
import { ownApplication } from './access.js';
import { APP_EMOJI_LIMIT, MAX_APP_EMOJI_BYTES } from './schemas.js';

async function present(repos: Repositories, emoji: ApplicationEmojiRecord) {
  const creator = emoji.creatorId === null ? null : await repos.users.findById(emoji.creatorId);
  return {
    id: emoji.id,
    name: emoji.name,
    roles: [],
    require_colons: true,
    managed: false,
    animated: emoji.animated,
    available: true,
    ...(creator === null ? {} : { user: serializeUser(creator) }),
  };
}

const nameTaken = () =>
  invalidField(['name'], 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN', 'Emoji name already taken.');

export function createApplicationEmojiService(deps: ServiceDeps) {
  const { storage, clock, ids, blobs } = deps;

  const findIn = async (repos: Repositories, applicationId: string, emojiId: string) => {
    const emoji = isSnowflake(emojiId) ? await repos.applicationEmojis.findById(emojiId) : null;
    if (emoji?.applicationId !== applicationId) throw new ApiError('UNKNOWN_EMOJI');
    return emoji;
  };

  return {
    async list(principal: Principal, applicationId: string) {
      const app = await ownApplication(storage, principal, applicationId);
      const emojis = await storage.applicationEmojis.listByApplication(app.id);
      return { items: await Promise.all(emojis.map((e) => present(storage, e))) };
    },

    async get(principal: Principal, applicationId: string, emojiId: string) {
      const app = await ownApplication(storage, principal, applicationId);
      return present(storage, await findIn(storage, app.id, emojiId));
    },

    async create(
      principal: Principal,
      applicationId: string,
      input: { name: string; image: string },
    ) {
      return storage.transaction(async (tx) => {
        const app = await ownApplication(tx, principal, applicationId);
        const image = decodeImage('image', input.image, { maxBytes: MAX_APP_EMOJI_BYTES });
        const existing = await tx.applicationEmojis.listByApplication(app.id);
        if (existing.some((e) => e.name === input.name)) throw nameTaken();
        if (existing.length >= APP_EMOJI_LIMIT) throw new ApiError('MAX_EMOJIS');
        const emoji: ApplicationEmojiRecord = {
          id: ids(),
          applicationId: app.id,
          name: input.name,
          animated: image.contentType === 'image/gif',
          creatorId: principal.user.id,
          createdAt: clock.now(),
        };
        await putImage(blobs, `emojis/${emoji.id}`, image);
        await tx.applicationEmojis.create(emoji);
        return present(tx, emoji);
      });
    },

    async rename(
      principal: Principal,
      target: { applicationId: string; emojiId: string },
      name: string,
    ) {
      return storage.transaction(async (tx) => {
        const app = await ownApplication(tx, principal, target.applicationId);
        const emoji = await findIn(tx, app.id, target.emojiId);
        const existing = await tx.applicationEmojis.listByApplication(app.id);
        if (existing.some((e) => e.name === name && e.id !== emoji.id)) throw nameTaken();
        const updated = await tx.applicationEmojis.rename(emoji.id, name);
        if (updated === null) throw new ApiError('UNKNOWN_EMOJI');
        return present(tx, updated);
      });
    },

    async delete(principal: Principal, target: { applicationId: string; emojiId: string }) {
      await storage.transaction(async (tx) => {
        const app = await ownApplication(tx, principal, target.applicationId);
        const emoji = await findIn(tx, app.id, target.emojiId);
        await tx.applicationEmojis.delete(emoji.id);
        freeBlobsAfterCommit(tx, blobs, [`emojis/${emoji.id}`]);
      });
    },
  };
}

export type ApplicationEmojiService = ReturnType<typeof createApplicationEmojiService>;
