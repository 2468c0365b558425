/**
 * @module resources/guildTemplates/service: a guild's template (one per guild, MANAGE_GUILD):
 * made from the guild as it is, synced to it again on request, renamed, deleted; anyone signed
 * in may read one by its code. `is_dirty` says whether the guild changed since the last sync.
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import {
  StorageConflictError,
  type GuildTemplateRecord,
  type Repositories,
} from '../../storage/index.js';
import { accessLoader } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeUser } from '../users/index.js';
import type { ModifyTemplateInput } from './schemas.js';
import { snapshotGuild } from './snapshot.js';

const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CODE_LENGTH = 12;

/** A template code: 12 letters and digits (the platform's form). */
export function newTemplateCode(): string {
  return [...randomBytes(CODE_LENGTH)]
    .map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length] ?? 'a')
    .join('');
}

const iso = (ms: number) => new Date(ms).toISOString();
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function serializeTemplate(repos: Repositories, template: GuildTemplateRecord) {
  const [creator, current] = await Promise.all([
    repos.users.findById(template.creatorId),
    snapshotGuild(repos, template.guildId),
  ]);
  return {
    code: template.code,
    name: template.name,
    description: template.description,
    usage_count: template.usageCount,
    creator_id: template.creatorId,
    creator: creator === null ? null : serializeUser(creator),
    created_at: iso(template.createdAt),
    updated_at: iso(template.updatedAt),
    source_guild_id: template.guildId,
    serialized_source_guild: template.source,
    is_dirty: !same(current, template.source),
  };
}

export function createGuildTemplateService(deps: ServiceDeps) {
  const { storage, clock } = deps;
  const accessFor = accessLoader(clock);

  /** The guild's template named by `code`, for a caller with MANAGE_GUILD. */
  const owned = async (
    tx: Repositories,
    principal: Principal,
    { guildId, code }: { guildId: string; code: string },
  ) => {
    const access = await accessFor(tx, principal, guildId);
    access.require(P.MANAGE_GUILD);
    const template = await tx.guildTemplates.findByCode(code);
    if (template?.guildId !== access.guild.id) throw new ApiError('UNKNOWN_GUILD_TEMPLATE');
    return template;
  };

  return {
    /** GET /guilds/templates/{code}. */
    async get(code: string) {
      const template = await storage.guildTemplates.findByCode(code);
      if (template === null) throw new ApiError('UNKNOWN_GUILD_TEMPLATE');
      return serializeTemplate(storage, template);
    },

    async list(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.MANAGE_GUILD);
      const templates = await storage.guildTemplates.listByGuild(access.guild.id);
      return Promise.all(templates.map((t) => serializeTemplate(storage, t)));
    },

    /** POST /guilds/{id}/templates: a guild has one template at most (30031). */
    async create(
      principal: Principal,
      guildId: string,
      input: { name: string; description?: string | null | undefined },
    ) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, guildId);
        access.require(P.MANAGE_GUILD);
        if ((await tx.guildTemplates.listByGuild(access.guild.id)).length > 0) {
          throw new ApiError('GUILD_ALREADY_HAS_TEMPLATE');
        }
        const now = clock.now();
        const record: GuildTemplateRecord = {
          code: newTemplateCode(),
          guildId: access.guild.id,
          name: input.name,
          description: input.description ?? null,
          usageCount: 0,
          creatorId: principal.user.id,
          source: await snapshotGuild(tx, access.guild.id),
          createdAt: now,
          updatedAt: now,
        };
        try {
          await tx.guildTemplates.create(record);
        } catch (err) {
          if (err instanceof StorageConflictError) throw new ApiError('GUILD_ALREADY_HAS_TEMPLATE');
          throw err;
        }
        return serializeTemplate(tx, record);
      });
    },

    /** PUT /guilds/{id}/templates/{code}: the template takes the guild as it is now. */
    async sync(principal: Principal, guildId: string, code: string) {
      return storage.transaction(async (tx) => {
        const template = await owned(tx, principal, { guildId, code });
        const updated = await tx.guildTemplates.update(template.code, {
          source: await snapshotGuild(tx, template.guildId),
          updatedAt: clock.now(),
        });
        return serializeTemplate(tx, updated ?? template);
      });
    },

    async modify(
      principal: Principal,
      request: { guildId: string; code: string },
      input: ModifyTemplateInput,
    ) {
      return storage.transaction(async (tx) => {
        const template = await owned(tx, principal, request);
        const updated = await tx.guildTemplates.update(template.code, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.description === undefined ? {} : { description: input.description }),
        });
        return serializeTemplate(tx, updated ?? template);
      });
    },

    /** DELETE /guilds/{id}/templates/{code}: answers the deleted template. */
    async delete(principal: Principal, guildId: string, code: string) {
      return storage.transaction(async (tx) => {
        const template = await owned(tx, principal, { guildId, code });
        const wire = await serializeTemplate(tx, template);
        await tx.guildTemplates.delete(template.code);
        return wire;
      });
    },
  };
}

export type GuildTemplateService = ReturnType<typeof createGuildTemplateService>;
