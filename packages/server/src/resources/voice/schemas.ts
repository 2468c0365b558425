import { z } from 'zod';
import { IsoTimestamp, Snowflake } from '../../http/schemas.js';

export const VoiceStateParams = z.object({ guild_id: z.string(), user_id: z.string() });

/** PATCH /guilds/{id}/voice-states/@me (UpdateSelfVoiceStateRequestPartial). */
export const UpdateSelfVoiceStateBody = z.object({
  channel_id: Snowflake.nullable().optional(),
  suppress: z.boolean().nullable().optional(),
  request_to_speak_timestamp: IsoTimestamp.nullable().optional(),
});
export type UpdateSelfVoiceStateInput = z.infer<typeof UpdateSelfVoiceStateBody>;

/** PATCH /guilds/{id}/voice-states/{user_id} (UpdateVoiceStateRequestPartial). */
export const UpdateVoiceStateBody = z.object({
  channel_id: Snowflake.nullable().optional(),
  suppress: z.boolean().nullable().optional(),
});
export type UpdateVoiceStateInput = z.infer<typeof UpdateVoiceStateBody>;

/** Stage instance privacy: 1 PUBLIC (deprecated, refused), 2 GUILD_ONLY. */
export const StagePrivacy = { PUBLIC: 1, GUILD_ONLY: 2 } as const;

const Topic = z.string().trim().min(1).max(120);

export const CreateStageInstanceBody = z.object({
  channel_id: Snowflake,
  topic: Topic,
  privacy_level: z.literal([StagePrivacy.GUILD_ONLY]).nullable().optional(),
  send_start_notification: z.boolean().nullable().optional(),
  guild_scheduled_event_id: Snowflake.nullable().optional(),
});
export type CreateStageInstanceInput = z.infer<typeof CreateStageInstanceBody>;

export const ModifyStageInstanceBody = z.object({
  topic: Topic.optional(),
  privacy_level: z.literal([StagePrivacy.GUILD_ONLY]).optional(),
});
export type ModifyStageInstanceInput = z.infer<typeof ModifyStageInstanceBody>;

export const StageChannelParams = z.object({ channel_id: z.string() });
