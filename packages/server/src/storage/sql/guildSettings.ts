/** @module Auto-moderation rules, guild templates, settings documents, vanity URLs, join requests (0033). */
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  JOIN_REQUEST_STATUSES,
  type AutoModRuleRecord,
  type AutoModRuleRepository,
  type GuildSettingRepository,
  type GuildTemplateRecord,
  type GuildTemplateRepository,
  type JoinRequestRecord,
  type JoinRequestRepository,
  type JoinRequestStatus,
  type SettingsJson,
} from '../types/guildSettings.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import type {
  AutomodRulesTable,
  GuildJoinRequestsTable,
  GuildTemplatesTable,
} from './guildSettingsSchema.js';
import { bool, flag, id, idOrNull, int, intOrNull, jsonArray } from './rows.js';
import type { Database } from './schema.js';

function jsonObject(text: string): SettingsJson {
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as SettingsJson)
    : {};
}

function jsonObjects(text: string): SettingsJson[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed)
    ? parsed.filter((item): item is SettingsJson => typeof item === 'object' && item !== null)
    : [];
}

function toRule(row: Selectable<AutomodRulesTable>): AutoModRuleRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    creatorId: id(row.creator_id),
    name: row.name,
    eventType: int(row.event_type),
    triggerType: int(row.trigger_type),
    triggerMetadata: jsonObject(row.trigger_metadata),
    actions: jsonObjects(row.actions),
    enabled: bool(row.enabled),
    exemptRoles: jsonArray(row.exempt_roles),
    exemptChannels: jsonArray(row.exempt_channels),
    createdAt: int(row.created_at),
  };
}

export function createAutoModRuleRepository(db: Kysely<Database>): AutoModRuleRepository {
  const rules = () => db.selectFrom('automod_rules').selectAll();
  const find = async (guildId: string, ruleId: string) => {
    const row = await rules()
      .where('guild_id', '=', guildId)
      .where('id', '=', ruleId)
      .executeTakeFirst();
    return row ? toRule(row) : null;
  };
  return {
    async listByGuild(guildId) {
      const rows = await rules().where('guild_id', '=', guildId).orderBy('id').execute();
      return rows.map(toRule);
    },
    find,
    async create(rule) {
      await db
        .insertInto('automod_rules')
        .values({
          id: rule.id,
          guild_id: rule.guildId,
          creator_id: rule.creatorId,
          name: rule.name,
          event_type: rule.eventType,
          trigger_type: rule.triggerType,
          trigger_metadata: JSON.stringify(rule.triggerMetadata),
          actions: JSON.stringify(rule.actions),
          enabled: flag(rule.enabled),
          exempt_roles: JSON.stringify(rule.exemptRoles),
          exempt_channels: JSON.stringify(rule.exemptChannels),
          created_at: rule.createdAt,
        })
        .execute();
      return rule;
    },
    async update(guildId, ruleId, patch) {
      const values = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.eventType === undefined ? {} : { event_type: patch.eventType }),
        ...(patch.triggerMetadata === undefined
          ? {}
          : { trigger_metadata: JSON.stringify(patch.triggerMetadata) }),
        ...(patch.actions === undefined ? {} : { actions: JSON.stringify(patch.actions) }),
        ...(patch.enabled === undefined ? {} : { enabled: flag(patch.enabled) }),
        ...(patch.exemptRoles === undefined
          ? {}
          : { exempt_roles: JSON.stringify(patch.exemptRoles) }),
        ...(patch.exemptChannels === undefined
          ? {}
          : { exempt_channels: JSON.stringify(patch.exemptChannels) }),
      };
      if (Object.keys(values).length > 0) {
        await db
          .updateTable('automod_rules')
          .set(values)
          .where('guild_id', '=', guildId)
          .where('id', '=', ruleId)
          .execute();
      }
      return find(guildId, ruleId);
    },
    async delete(guildId, ruleId) {
      const result = await db
        .deleteFrom('automod_rules')
        .where('guild_id', '=', guildId)
        .where('id', '=', ruleId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function toTemplate(row: Selectable<GuildTemplatesTable>): GuildTemplateRecord {
  return {
    code: row.code,
    guildId: id(row.guild_id),
    name: row.name,
    description: row.description,
    usageCount: int(row.usage_count),
    creatorId: id(row.creator_id),
    source: jsonObject(row.source),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export function createGuildTemplateRepository(db: Kysely<Database>): GuildTemplateRepository {
  const templates = () => db.selectFrom('guild_templates').selectAll();
  const findByCode = async (code: string) => {
    const row = await templates().where('code', '=', code).executeTakeFirst();
    return row ? toTemplate(row) : null;
  };
  return {
    findByCode,
    async listByGuild(guildId) {
      const rows = await templates()
        .where('guild_id', '=', guildId)
        .orderBy('created_at')
        .execute();
      return rows.map(toTemplate);
    },
    async create(template) {
      await conflictsAsStorageErrors(
        db
          .insertInto('guild_templates')
          .values({
            code: template.code,
            guild_id: template.guildId,
            name: template.name,
            description: template.description,
            usage_count: template.usageCount,
            creator_id: template.creatorId,
            source: JSON.stringify(template.source),
            created_at: template.createdAt,
            updated_at: template.updatedAt,
          })
          .execute(),
      );
      return template;
    },
    async update(code, patch) {
      const values = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.source === undefined ? {} : { source: JSON.stringify(patch.source) }),
        ...(patch.updatedAt === undefined ? {} : { updated_at: patch.updatedAt }),
      };
      if (Object.keys(values).length > 0) {
        await db.updateTable('guild_templates').set(values).where('code', '=', code).execute();
      }
      return findByCode(code);
    },
    async delete(code) {
      const result = await db
        .deleteFrom('guild_templates')
        .where('code', '=', code)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async countUse(code) {
      await db
        .updateTable('guild_templates')
        .set({ usage_count: sql`usage_count + 1` })
        .where('code', '=', code)
        .execute();
    },
  };
}

export function createGuildSettingRepository(db: Kysely<Database>): GuildSettingRepository {
  const vanityRow = (row: {
    guild_id: string | bigint;
    code: string;
    uses: number | bigint | string;
  }) => ({
    guildId: id(row.guild_id),
    code: row.code,
    uses: int(row.uses),
  });
  return {
    async get(guildId, name) {
      const row = await db
        .selectFrom('guild_settings')
        .select('value')
        .where('guild_id', '=', guildId)
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? jsonObject(row.value) : null;
    },
    async put({ guildId, name, value, updatedAt }) {
      const text = JSON.stringify(value);
      await db
        .insertInto('guild_settings')
        .values({ guild_id: guildId, name, value: text, updated_at: updatedAt })
        .onConflict((oc) =>
          oc.columns(['guild_id', 'name']).doUpdateSet({ value: text, updated_at: updatedAt }),
        )
        .execute();
    },
    async vanity(guildId) {
      const row = await db
        .selectFrom('guild_vanity_urls')
        .selectAll()
        .where('guild_id', '=', guildId)
        .executeTakeFirst();
      return row ? vanityRow(row) : null;
    },
    async vanityByCode(code) {
      const row = await db
        .selectFrom('guild_vanity_urls')
        .selectAll()
        .where('code', '=', code)
        .executeTakeFirst();
      return row ? vanityRow(row) : null;
    },
    async setVanity(guildId, code) {
      if (code === null) {
        await db.deleteFrom('guild_vanity_urls').where('guild_id', '=', guildId).execute();
        return;
      }
      await conflictsAsStorageErrors(
        db
          .insertInto('guild_vanity_urls')
          .values({ guild_id: guildId, code, uses: 0 })
          .onConflict((oc) => oc.column('guild_id').doUpdateSet({ code, uses: 0 }))
          .execute(),
      );
    },
    async countVanityUse(guildId) {
      await db
        .updateTable('guild_vanity_urls')
        .set({ uses: sql`uses + 1` })
        .where('guild_id', '=', guildId)
        .execute();
    },
  };
}

const asStatus = (value: string): JoinRequestStatus =>
  (JOIN_REQUEST_STATUSES as readonly string[]).includes(value)
    ? (value as JoinRequestStatus)
    : 'SUBMITTED';

function toJoinRequest(row: Selectable<GuildJoinRequestsTable>): JoinRequestRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    userId: id(row.user_id),
    status: asStatus(row.status),
    formResponses: jsonObjects(row.form_responses),
    rejectionReason: row.rejection_reason,
    actionedByUserId: idOrNull(row.actioned_by_user_id),
    actionedAt: intOrNull(row.actioned_at),
    createdAt: int(row.created_at),
  };
}

export function createJoinRequestRepository(db: Kysely<Database>): JoinRequestRepository {
  const requests = () => db.selectFrom('guild_join_requests').selectAll();
  const findById = async (requestId: string) => {
    const row = await requests().where('id', '=', requestId).executeTakeFirst();
    return row ? toJoinRequest(row) : null;
  };
  return {
    async create(request) {
      await conflictsAsStorageErrors(
        db
          .insertInto('guild_join_requests')
          .values({
            id: request.id,
            guild_id: request.guildId,
            user_id: request.userId,
            status: request.status,
            form_responses: JSON.stringify(request.formResponses),
            rejection_reason: request.rejectionReason,
            actioned_by_user_id: request.actionedByUserId,
            actioned_at: request.actionedAt,
            created_at: request.createdAt,
          })
          .execute(),
      );
      return request;
    },
    async find(guildId, requestId) {
      const row = await requests()
        .where('guild_id', '=', guildId)
        .where('id', '=', requestId)
        .executeTakeFirst();
      return row ? toJoinRequest(row) : null;
    },
    async findForUser(guildId, userId) {
      const row = await requests()
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? toJoinRequest(row) : null;
    },
    async list(guildId, query) {
      let base = db.selectFrom('guild_join_requests').where('guild_id', '=', guildId);
      if (query.status !== undefined) base = base.where('status', '=', query.status);
      const counted = await base
        .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
        .executeTakeFirst();
      let page = base.selectAll();
      if (query.after !== undefined) {
        page = page.where('id', '>', query.after).orderBy('id', 'asc');
      } else {
        if (query.before !== undefined) page = page.where('id', '<', query.before);
        page = page.orderBy('id', 'desc');
      }
      const rows = await page.limit(query.limit).execute();
      return { total: int(counted?.n ?? 0), requests: rows.map(toJoinRequest) };
    },
    async update(requestId, patch) {
      const values = {
        ...(patch.status === undefined ? {} : { status: patch.status }),
        ...(patch.formResponses === undefined
          ? {}
          : { form_responses: JSON.stringify(patch.formResponses) }),
        ...(patch.rejectionReason === undefined ? {} : { rejection_reason: patch.rejectionReason }),
        ...(patch.actionedByUserId === undefined
          ? {}
          : { actioned_by_user_id: patch.actionedByUserId }),
        ...(patch.actionedAt === undefined ? {} : { actioned_at: patch.actionedAt }),
      };
      if (Object.keys(values).length > 0) {
        await db
          .updateTable('guild_join_requests')
          .set(values)
          .where('id', '=', requestId)
          .execute();
      }
      return findById(requestId);
    },
    async delete(requestId) {
      const result = await db
        .deleteFrom('guild_join_requests')
        .where('id', '=', requestId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
