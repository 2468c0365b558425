/** @module The small pieces every guild-scoped route and service shares: route auth, audit reason, access loading. */
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import type { Principal } from '../../http/authenticator.js';
import { auditLogReason } from '../../http/schemas.js';
import type { Repositories } from '../../storage/index.js';
import { loadGuildAccess, type GuildAccess } from './guildAccess.js';

/** Route options of every guild route: a bot or a user session may call it. */
export const AUTH = { config: { auth: ['bot', 'session'] } } as const;

/** The request's X-Audit-Log-Reason, for the audit entry of a mutation. */
export const reasonOf = (request: FastifyRequest): string | null =>
  auditLogReason(request.headers['x-audit-log-reason']);

/** What a service's routes load first: the caller's access to a guild, at the clock's now. */
export type AccessFor = (
  repos: Repositories,
  principal: Principal,
  guildId: string,
) => Promise<GuildAccess>;

/** {@link loadGuildAccess} for a principal, with `nowMs` from the service's clock. */
export function accessLoader(clock: Clock): AccessFor {
  return (repos, principal, guildId) =>
    loadGuildAccess(repos, { guildId, userId: principal.user.id, nowMs: clock.now() });
}
