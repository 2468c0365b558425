import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';

/** Interaction types a person may send (1 PING is the platform's own). */
export const InteractionTypes = {
  PING: 1,
  APPLICATION_COMMAND: 2,
  MESSAGE_COMPONENT: 3,
  APPLICATION_COMMAND_AUTOCOMPLETE: 4,
  MODAL_SUBMIT: 5,
} as const;

/** The longest nonce a client may send (as on messages). */
const MAX_NONCE_LENGTH = 25;
/** A custom_id is at most 100 characters. */
const MAX_CUSTOM_ID = 100;

/** A command's submitted option: a value, or the options of a subcommand (group). */
export interface SubmittedOption {
  name: string;
  type: number;
  value?: unknown;
  focused?: boolean;
  options?: SubmittedOption[];
}

const SubmittedOptionSchema: z.ZodType<SubmittedOption> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.number().int(),
    value: z.unknown().optional(),
    focused: z.boolean().optional(),
    options: z.array(SubmittedOptionSchema).max(25).optional(),
  }),
);

/** An uploaded file a command's attachment option or a modal's File Upload names, by `id`. */
const UploadRef = z.object({
  id: z.union([Snowflake, z.number().int().min(0)]).transform(String),
  filename: z.string().min(1).max(1024),
});

/** `data` of APPLICATION_COMMAND and APPLICATION_COMMAND_AUTOCOMPLETE. */
export const CommandData = z.object({
  id: Snowflake,
  name: z.string().min(1).max(32),
  type: z.number().int(),
  version: Snowflake.optional(),
  guild_id: Snowflake.optional(),
  options: z.array(SubmittedOptionSchema).max(25).optional(),
  target_id: Snowflake.optional(),
  attachments: z.array(UploadRef).max(10).optional(),
});
export type CommandDataInput = z.infer<typeof CommandData>;

/** `data` of MESSAGE_COMPONENT. */
export const ComponentData = z.object({
  component_type: z.number().int(),
  custom_id: z.string().min(1).max(MAX_CUSTOM_ID),
  values: z.array(z.string()).max(25).optional(),
});
export type ComponentDataInput = z.infer<typeof ComponentData>;

/** `data` of MODAL_SUBMIT: the submitted components as the client sends them. */
export const ModalData = z.object({
  custom_id: z.string().min(1).max(MAX_CUSTOM_ID),
  components: z.array(z.unknown()).max(5),
  attachments: z.array(UploadRef).max(10).optional(),
});
export type ModalDataInput = z.infer<typeof ModalData>;

/** POST /interactions (the platform's own client): the common fields; `data` by type. */
export const InvokeBody = z.object({
  type: z.union([
    z.literal(InteractionTypes.APPLICATION_COMMAND),
    z.literal(InteractionTypes.MESSAGE_COMPONENT),
    z.literal(InteractionTypes.APPLICATION_COMMAND_AUTOCOMPLETE),
    z.literal(InteractionTypes.MODAL_SUBMIT),
  ]),
  application_id: Snowflake,
  guild_id: Snowflake.nullable().optional(),
  channel_id: Snowflake,
  session_id: z.string().min(1).max(128),
  nonce: z.string().max(MAX_NONCE_LENGTH).optional(),
  data: z.record(z.string(), z.unknown()),
  message_id: Snowflake.optional(),
  message_flags: z.number().int().optional(),
  analytics_location: z.string().optional(),
});
export type InvokeInput = z.infer<typeof InvokeBody>;

/** The channel of GET /channels/{channel_id}/application-command-index. */
export const CommandIndexParams = z.object({ channel_id: Snowflake });
