import type { APIGuildIntegration } from 'discord-api-types/v10';
import type { ApplicationRecord, UserRecord } from '../../storage/index.js';
import { serializeUser } from '../users/index.js';
import type { WireShape } from '../wireShape.js';

/** The scopes a bot install grants (what the platform lists on the integration). */
const BOT_SCOPES: readonly string[] = ['bot', 'applications.commands'];

/**
 * A guild's integration of an application whose bot it added (type `discord`; this platform has
 * no Twitch or YouTube links): its id is the application's, and so is its account. The
 * application's `type` is null, as the platform's IntegrationApplicationResponse has it (the
 * library's type leaves it out, so the check below reads the object as built, extra key aside).
 */
export function serializeIntegration(application: ApplicationRecord, bot: UserRecord | null) {
  const integration = {
    type: 'discord',
    id: application.id,
    name: application.name,
    account: { id: application.id, name: application.name },
    enabled: true,
    scopes: BOT_SCOPES,
    application: {
      id: application.id,
      name: application.name,
      icon: application.icon,
      description: application.description,
      type: null,
      ...(bot === null ? {} : { bot: serializeUser(bot) }),
    },
  };
  return integration satisfies WireShape<APIGuildIntegration>;
}

export type IntegrationWire = ReturnType<typeof serializeIntegration>;
