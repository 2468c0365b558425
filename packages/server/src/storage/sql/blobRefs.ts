import type { Kysely } from 'kysely';
import type { BlobReferenceRepository } from '../types/blobRefs.js';
import type { ServerSecretRepository } from '../types/serverSecrets.js';
import { id } from './rows.js';
import type { Database } from './schema.js';

/** Secrets made once and shared by every node (migration 0015). */
export function createServerSecretRepository(db: Kysely<Database>): ServerSecretRepository {
  return {
    async getOrCreate(name, candidate, createdAt) {
      await db
        .insertInto('server_secrets')
        .values({ name, value: candidate, created_at: createdAt })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}

/** `{hash}.{ext}` → hash, or null for anything else. */
const hashOf = (file: string) => /^((?:a_)?[0-9a-f]{32})\.[a-z]{3,4}$/.exec(file)?.[1] ?? null;

interface ImageColumn {
  table: 'users' | 'guilds' | 'roles' | 'applications' | 'webhooks';
  column: string;
}

/** The rows that hold `{kind}/{owner_id}/{hash}.{ext}` images, by blob folder. */
const OWNED_IMAGES: Record<string, readonly ImageColumn[]> = {
  avatars: [
    { table: 'users', column: 'avatar' },
    { table: 'webhooks', column: 'avatar' },
  ],
  banners: [
    { table: 'users', column: 'banner' },
    { table: 'guilds', column: 'banner' },
  ],
  icons: [{ table: 'guilds', column: 'icon' }],
  splashes: [{ table: 'guilds', column: 'splash' }],
  'role-icons': [{ table: 'roles', column: 'icon' }],
  'app-icons': [
    { table: 'applications', column: 'icon' },
    { table: 'applications', column: 'cover_image' },
  ],
};

/**
 * Which blob keys a row still points at, read from the key layout the services write: by id
 * (attachments, emojis, stickers) or by owner and image hash (avatars, banners, icons...). A key
 * of a layout this does not know counts as referenced, so the sweep never removes it.
 */
export function createBlobReferenceRepository(db: Kysely<Database>): BlobReferenceRepository {
  const byId = async (
    table: 'message_attachments' | 'emojis' | 'stickers',
    ids: readonly string[],
  ) => {
    if (ids.length === 0) return new Set<string>();
    const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => id(row.id)));
  };

  const ownedImage = async (kind: string, ownerId: string, hash: string) => {
    for (const { table, column } of OWNED_IMAGES[kind] ?? []) {
      const row = await db
        .selectFrom(table)
        .select('id')
        .where('id', '=', ownerId)
        .where(column as 'id', '=', hash)
        .executeTakeFirst();
      if (row !== undefined) return true;
    }
    return false;
  };

  const memberImage = async (column: 'avatar' | 'banner', parts: readonly string[]) => {
    const [guildId, userId, file] = parts;
    const hash = hashOf(file ?? '');
    if (guildId === undefined || userId === undefined || hash === null) return false;
    const row = await db
      .selectFrom('members')
      .select('user_id')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .where(column, '=', hash)
      .executeTakeFirst();
    return row !== undefined;
  };

  const eventCover = async (eventId: string | undefined, file: string | undefined) => {
    const hash = hashOf(file ?? '');
    if (eventId === undefined || hash === null) return false;
    const row = await db
      .selectFrom('scheduled_events')
      .select('id')
      .where('id', '=', eventId)
      .where('image', '=', hash)
      .executeTakeFirst();
    return row !== undefined;
  };

  /** A rich presence asset, `app-assets/{application_id}/{asset_id}`. */
  const appAsset = async (applicationId: string | undefined, assetId: string | undefined) => {
    if (!/^\d{1,20}$/.test(applicationId ?? '') || !/^\d{1,20}$/.test(assetId ?? '')) {
      return false;
    }
    const row = await db
      .selectFrom('application_assets')
      .select('id')
      .where('application_id', '=', applicationId ?? '')
      .where('id', '=', assetId ?? '')
      .executeTakeFirst();
    return row !== undefined;
  };

  const interactionRow = async (interactionId: string | undefined) => {
    if (interactionId === undefined || !/^\d+$/.test(interactionId)) return false;
    const row = await db
      .selectFrom('interactions')
      .select('id')
      .where('id', '=', interactionId)
      .executeTakeFirst();
    return row !== undefined;
  };

  return {
    async referenced(keys) {
      const result = new Set<string>();
      const idKinds = {
        attachments: 'message_attachments',
        emojis: 'emojis',
        stickers: 'stickers',
      };
      for (const [kind, table] of Object.entries(idKinds) as [
        keyof typeof idKinds,
        'message_attachments' | 'emojis' | 'stickers',
      ][]) {
        const wanted = keys.filter((key) => key.startsWith(`${kind}/`));
        const ids = wanted.map((key) => key.slice(kind.length + 1)).filter((v) => /^\d+$/.test(v));
        const found = await byId(table, ids);
        for (const key of wanted) if (found.has(key.slice(kind.length + 1))) result.add(key);
      }
      for (const key of keys) {
        const [kind = '', ...rest] = key.split('/');
        if (kind in idKinds) continue;
        let held: boolean;
        if (kind in OWNED_IMAGES) {
          const hash = hashOf(rest[1] ?? '');
          held =
            rest.length === 2 &&
            hash !== null &&
            /^\d+$/.test(rest[0] ?? '') &&
            (await ownedImage(kind, rest[0] ?? '', hash));
        } else if (kind === 'guild-avatars' || kind === 'guild-banners') {
          held = await memberImage(kind === 'guild-avatars' ? 'avatar' : 'banner', rest);
        } else if (kind === 'guild-events') {
          held = await eventCover(rest[0], rest[1]);
        } else if (kind === 'app-assets') {
          held = await appAsset(rest[0], rest[1]);
        } else if (kind === 'interaction-attachments') {
          // A person's upload lives as long as its interaction's row (15 minutes).
          held = await interactionRow(rest[0]);
        } else {
          held = true;
        }
        if (held) result.add(key);
      }
      return result;
    },

    async attachmentIds(scope) {
      let query = db
        .selectFrom('message_attachments')
        .innerJoin('messages', 'messages.id', 'message_attachments.message_id')
        .select('message_attachments.id');
      if (scope.guildId !== undefined) query = query.where('messages.guild_id', '=', scope.guildId);
      if (scope.channelId !== undefined) {
        query = query.where('message_attachments.channel_id', '=', scope.channelId);
      }
      if (scope.authorId !== undefined) {
        query = query.where('messages.author_id', '=', scope.authorId);
      }
      if (scope.messageIds !== undefined) {
        if (scope.messageIds.length === 0) return [];
        query = query.where('message_attachments.message_id', 'in', scope.messageIds);
      }
      const rows = await query.execute();
      return rows.map((row) => id(row.id));
    },
  };
}
