import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Snowflake, queryInt } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { AuditLogService } from './service.js';

const AuditLogQuery = z.object({
  user_id: Snowflake.optional(),
  action_type: queryInt(1, 1000).optional(),
  before: Snowflake.optional(),
  after: Snowflake.optional(),
  limit: queryInt(1, 100).default(50),
});

export function registerAuditLogRoutes(app: FastifyInstance, auditLog: AuditLogService): void {
  app.get('/guilds/:guild_id/audit-logs', { config: { auth: ['bot', 'session'] } }, (request) => {
    const { guild_id } = request.params as { guild_id: string };
    const query = parseInput(AuditLogQuery, request.query);
    return auditLog.list(principalOf(request), guild_id, {
      limit: query.limit,
      ...(query.user_id === undefined ? {} : { userId: query.user_id }),
      ...(query.action_type === undefined ? {} : { actionType: query.action_type }),
      ...(query.before === undefined ? {} : { before: query.before }),
      ...(query.after === undefined ? {} : { after: query.after }),
    });
  });
}
