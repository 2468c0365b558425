/** @module resources/guildTemplates/schemas: template bodies. */
import { z } from 'zod';

export const TEMPLATE_LIMITS = { name: 100, description: 120 } as const;

export const CreateTemplateBody = z.object({
  name: z.string().trim().min(1).max(TEMPLATE_LIMITS.name),
  description: z.string().max(TEMPLATE_LIMITS.description).nullable().optional(),
});

export const ModifyTemplateBody = CreateTemplateBody.partial();
export type ModifyTemplateInput = z.infer<typeof ModifyTemplateBody>;

export const TemplateParams = z.object({ guild_id: z.string(), code: z.string() });
export const TemplateCodeParams = z.object({ code: z.string() });
