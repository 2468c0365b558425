/**
 * @module control/worldApps: a world's applications, as their developers make them in the portal:
 * the app (with its bot and token), its settings and intents, SKUs, then commands and test
 * entitlements once the guilds they name exist.
 */
import { ApplicationFlags } from '@guildhall/protocol';
import {
  CreateApplicationBody,
  ModifyOwnedApplicationBody,
} from '../resources/applications/index.js';
import { CreateCommandBody } from '../resources/commands/index.js';
import {
  CreateSkuBody,
  CreateTestEntitlementBody,
  EntitlementOwnerTypes,
} from '../resources/monetization/index.js';
import { SkuTypes } from '../storage/index.js';
import type { ParsedWorld, WorldApplication, WorldPrivilegedIntent } from './worldSchema.js';
import { bodyOf, principalOf, seeded, step, type WorldContext } from './worldSteps.js';
import type { LoadedApplication, LoadedGuild, LoadedPerson } from './worldTypes.js';

/** The self-serve flag of each privileged intent (as the portal's switches set them). */
const INTENT_FLAGS: Record<WorldPrivilegedIntent, bigint> = {
  GUILD_MEMBERS: ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED,
  GUILD_PRESENCES: ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
  MESSAGE_CONTENT: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
};

const SKU_TYPES = {
  durable: SkuTypes.DURABLE,
  consumable: SkuTypes.CONSUMABLE,
  subscription: SkuTypes.SUBSCRIPTION,
  subscription_group: SkuTypes.SUBSCRIPTION_GROUP,
} as const;

/** The PATCH /applications/{id} body of what the world sets beyond the name. */
function settingsOf(app: WorldApplication): Record<string, unknown> {
  const { intents, flags } = app;
  const settings: Record<string, unknown> = { ...app };
  for (const key of ['owner', 'name', 'intents', 'commands', 'skus', 'entitlements', 'flags']) {
    // Made by their own steps, not by PATCH /applications/{id}.
    Reflect.deleteProperty(settings, key);
  }
  const intentFlags = (intents ?? []).reduce((all, intent) => all | INTENT_FLAGS[intent], 0n);
  const allFlags = BigInt(flags ?? 0) | intentFlags;
  return { ...settings, ...(allFlags === 0n ? {} : { flags: Number(allFlags) }) };
}

/** Makes each application with its bot, settings and SKUs, as its owner. */
export async function loadApplications(
  context: WorldContext,
  world: ParsedWorld,
  people: Record<string, LoadedPerson>,
): Promise<Record<string, LoadedApplication>> {
  const { app } = context;
  const loaded: Record<string, LoadedApplication> = {};
  for (const [name, application] of Object.entries(world.applications ?? {})) {
    const path = ['applications', name];
    const owner = people[application.owner];
    if (owner === undefined) continue;
    const developer = await principalOf(app, owner.id, { kind: 'session', value: owner.token });
    const input = bodyOf(CreateApplicationBody, { name: application.name ?? name }, path);
    const created = await step(path, () =>
      seeded(context, `application:${name}`, () =>
        app.services.applications.create(owner.id, input),
      ),
    );
    const id = created.application.id;
    const settings = bodyOf(ModifyOwnedApplicationBody, settingsOf(application), path);
    if (Object.keys(settings).length > 0) {
      await step(path, () => app.services.applications.modify(developer, id, settings));
    }
    const skus: Record<string, string> = {};
    for (const [skuName, sku] of Object.entries(application.skus ?? {})) {
      const at = [...path, 'skus', skuName];
      const type = typeof sku.type === 'number' ? sku.type : SKU_TYPES[sku.type];
      const body = bodyOf(CreateSkuBody, { ...sku, name: sku.name ?? skuName, type }, at);
      const wire = await step(at, () =>
        seeded(context, `application:${name}/sku:${skuName}`, () =>
          app.services.monetization.createSku(developer, id, body),
        ),
      );
      skus[skuName] = wire.id;
    }
    loaded[name] = {
      id,
      botUserId: created.bot.id,
      botToken: created.botToken,
      clientSecret: created.clientSecret,
      publicKey: created.application.verifyKey,
      commands: {},
      skus,
      entitlements: {},
    };
  }
  return loaded;
}

/** Each application's commands (as its bot registers them) and test entitlements. */
export async function loadCommandsAndEntitlements(
  context: WorldContext,
  world: ParsedWorld,
  loaded: {
    people: Record<string, LoadedPerson>;
    applications: Record<string, LoadedApplication>;
    guilds: Record<string, LoadedGuild>;
  },
): Promise<void> {
  const { app } = context;
  for (const [name, application] of Object.entries(world.applications ?? {})) {
    const path = ['applications', name];
    const made = loaded.applications[name];
    const owner = loaded.people[application.owner];
    if (made === undefined || owner === undefined) continue;
    const bot = await principalOf(app, made.botUserId, {
      kind: 'bot',
      value: made.botToken,
      applicationId: made.id,
    });
    for (const [commandName, command] of Object.entries(application.commands ?? {})) {
      const at = [...path, 'commands', commandName];
      const { guild, ...fields } = command;
      const body = bodyOf(CreateCommandBody, { ...fields, name: fields.name ?? commandName }, at);
      const guildId = guild === undefined ? null : (loaded.guilds[guild]?.id ?? null);
      const result = await step(at, () =>
        seeded(context, `application:${name}/command:${commandName}`, () =>
          app.services.commands.create(bot, { applicationId: made.id, guildId }, body),
        ),
      );
      made.commands[commandName] = result.command.id;
    }
    const developer = await principalOf(app, owner.id, { kind: 'session', value: owner.token });
    for (const [entitlementName, entitlement] of Object.entries(application.entitlements ?? {})) {
      const at = [...path, 'entitlements', entitlementName];
      const holder =
        entitlement.user === undefined
          ? {
              owner_id: loaded.guilds[entitlement.guild ?? '']?.id,
              owner_type: EntitlementOwnerTypes.GUILD,
            }
          : {
              owner_id: loaded.people[entitlement.user]?.id,
              owner_type: EntitlementOwnerTypes.USER,
            };
      const body = bodyOf(
        CreateTestEntitlementBody,
        { sku_id: made.skus[entitlement.sku], ...holder },
        at,
      );
      const wire = await step(at, () =>
        seeded(context, `application:${name}/entitlement:${entitlementName}`, () =>
          app.services.monetization.createTestEntitlement(developer, made.id, body),
        ),
      );
      made.entitlements[entitlementName] = wire.id;
    }
  }
}
