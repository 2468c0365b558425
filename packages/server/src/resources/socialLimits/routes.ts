import type { FastifyInstance } from 'fastify';
import { requireOperator } from '../../http/operator.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { ApprovalParams, approvalWire, approveOrThrow } from './approval.js';

const PUBLIC = { config: { auth: 'none' } } as const;

/**
 * Operator routes (`Authorization: Admin <token>`): `PUT` approves an application for the Social
 * SDK, `DELETE` withdraws the approval, so the pre-approval limits apply again.
 */
export function registerSocialApprovalRoutes(
  app: FastifyInstance,
  deps: { storage: Pick<Storage, 'applications'>; adminTokenHash: string | null },
): void {
  const { storage, adminTokenHash } = deps;
  const path = '/admin/applications/:application_id/social-approval';

  app.put(path, PUBLIC, async (request) => {
    requireOperator(request, adminTokenHash);
    const { application_id: id } = parseInput(ApprovalParams, request.params);
    return approvalWire(await approveOrThrow(storage, id, true));
  });

  app.delete(path, PUBLIC, async (request, reply) => {
    requireOperator(request, adminTokenHash);
    const { application_id: id } = parseInput(ApprovalParams, request.params);
    await approveOrThrow(storage, id, false);
    return reply.status(204).send();
  });
}
