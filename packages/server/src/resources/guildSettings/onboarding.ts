/**
 * @module resources/guildSettings/onboarding: the rules of a guild's onboarding document: its
 * wire form, the channel requirements to enable it (350000), the prompts a PUT makes and their
 * audit entries. The settings service (./settings.ts) applies them.
 */
import { AuditLogActions } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Repositories } from '../../storage/index.js';
import type { GuildAccess } from '../access/index.js';
import { diffChanges, recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { everyoneView } from './everyone.js';
import { SETTINGS_LIMITS as L, type Onboarding, type OnboardingInput } from './schemas.js';

/** Refuses an id not among `known` (50035 at `field`). */
export function checkIn(
  field: (string | number)[],
  known: ReadonlySet<string>,
  ids: readonly string[],
) {
  ids.forEach((id, index) => {
    if (!known.has(id)) throw invalidField([...field, index], 'BASE_TYPE_INVALID', 'Unknown id.');
  });
}

/** Onboarding as the routes show it. */
export const onboardingWire = (guildId: string, onboarding: Onboarding) => ({
  guild_id: guildId,
  prompts: onboarding.prompts,
  default_channel_ids: onboarding.default_channel_ids,
  enabled: onboarding.enabled,
  mode: onboarding.mode,
});

/** Onboarding's requirements to be enabled (350000 otherwise). */
export const checkOnboardingRequirements = async (
  tx: Repositories,
  access: GuildAccess,
  input: { onboarding: Onboarding; now: number },
) => {
  const { onboarding, now } = input;
  const view = await everyoneView(tx, access.guild, now);
  const counted = new Set(onboarding.default_channel_ids);
  // The advanced mode counts the channels prompts' options lead to as well.
  if (onboarding.mode === 1) {
    for (const prompt of onboarding.prompts) {
      for (const option of prompt.options) for (const id of option.channel_ids) counted.add(id);
    }
  }
  const channels = view.channels.filter((c) => counted.has(c.id));
  if (
    channels.length < L.onboardingMinDefaultChannels ||
    channels.filter(view.chattable).length < L.onboardingMinChattableChannels
  ) {
    throw new ApiError('CANNOT_ENABLE_ONBOARDING');
  }
};

/** The prompts of a PUT: ids kept (made when absent), ids checked against the guild. */
export const promptsOf = (
  input: NonNullable<OnboardingInput['prompts']>,
  known: { channels: ReadonlySet<string>; roles: ReadonlySet<string> },
  ids: ServiceDeps['ids'],
): Onboarding['prompts'] =>
  input.map((prompt, p) => ({
    id: prompt.id,
    title: prompt.title,
    single_select: prompt.single_select ?? false,
    required: prompt.required ?? false,
    in_onboarding: prompt.in_onboarding ?? true,
    type: prompt.type ?? 0,
    options: prompt.options.map((option, o) => {
      const path = ['prompts', p, 'options', o];
      checkIn([...path, 'channel_ids'], known.channels, option.channel_ids ?? []);
      checkIn([...path, 'role_ids'], known.roles, option.role_ids ?? []);
      return {
        id: option.id ?? ids(),
        title: option.title,
        description: option.description ?? '',
        emoji: {
          id: option.emoji_id ?? null,
          name: option.emoji_name ?? null,
          animated: option.emoji_animated ?? false,
        },
        role_ids: option.role_ids ?? [],
        channel_ids: option.channel_ids ?? [],
      };
    }),
  }));

/** Audit entries of prompts made, changed and removed by an onboarding PUT. */
export const auditPrompts = async (
  { tx, ids }: { tx: Repositories; ids: ServiceDeps['ids'] },
  entry: { guildId: string; userId: string; reason: string | null },
  { before, after }: { before: Onboarding['prompts']; after: Onboarding['prompts'] },
) => {
  const old = new Map(before.map((p) => [p.id, p]));
  for (const prompt of after) {
    const previous = old.get(prompt.id);
    old.delete(prompt.id);
    const changes = diffChanges(previous ?? {}, prompt);
    if (previous !== undefined && changes.length === 0) continue;
    await recordAudit(tx, ids, {
      ...entry,
      targetId: prompt.id,
      actionType:
        previous === undefined
          ? AuditLogActions.ONBOARDING_PROMPT_CREATE
          : AuditLogActions.ONBOARDING_PROMPT_UPDATE,
      changes,
    });
  }
  for (const removed of old.values()) {
    await recordAudit(tx, ids, {
      ...entry,
      targetId: removed.id,
      actionType: AuditLogActions.ONBOARDING_PROMPT_DELETE,
      changes: diffChanges(removed, {}),
    });
  }
};
