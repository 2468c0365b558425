/**
 * @module activities/proxyTickets: `POST /applications/{application_id}/proxy-tickets`, what the
 * client asks when it frames an activity and when the activity sends REQUEST_PROXY_TICKET_REFRESH
 * (docs/activities.md#proxy-authentication). A person gets a ticket for an app they may launch
 * (it has an activity for the web, and its age gate lets them in: the launch route's checks),
 * signed with the app's key so that its backend can check the headers the proxy host sends.
 */
import { isSnowflake } from '@guildhall/protocol';
import type { Clock } from '../domain/clock.js';
import type { SecretBox } from '../domain/secretBox.js';
import { openSigningKey } from '../delivery/worker.js';
import { ApiError } from '../errors/index.js';
import type { Principal } from '../http/authenticator.js';
import type { Storage } from '../storage/index.js';
import { requireActivity } from './instances.js';
import { PROXY_TICKET_TTL_S, signProxyTicket } from './proxyTicket.js';

export interface ProxyTicketDeps {
  storage: Storage;
  clock: Clock;
  secrets: SecretBox;
}

export function createProxyTicketService(deps: ProxyTicketDeps) {
  const { storage, clock, secrets } = deps;
  return {
    /** A new ticket for the person and the app: `{ticket}`. */
    async issue(principal: Principal, applicationId: string): Promise<{ ticket: string }> {
      if (!isSnowflake(applicationId)) throw new ApiError('UNKNOWN_APPLICATION');
      const userId = principal.user.id;
      const application = await requireActivity(storage, applicationId, userId);
      const createdAt = Math.floor(clock.now() / 1000);
      const ticket = signProxyTicket(
        {
          application_id: application.id,
          user_id: userId,
          created_at: createdAt,
          expires_at: createdAt + PROXY_TICKET_TTL_S,
        },
        openSigningKey(secrets, application),
      );
      return { ticket };
    },
  };
}

export type ProxyTicketService = ReturnType<typeof createProxyTicketService>;
