/**
 * @module http/operator: the operator routes' credential. A request to an `/admin/…` route must
 * carry `Authorization: Admin <token>` with the operator token (GUILDHALL_ADMIN_TOKEN, which the
 * server keeps only as its hash); without one configured, every call is refused.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { hashSecret } from '../domain/credentials.js';
import { ApiError } from '../errors/index.js';

/** Refuses the request (401) unless it carries the operator token. */
export function requireOperator(request: FastifyRequest, adminTokenHash: string | null): void {
  const header = request.headers.authorization ?? '';
  const match = /^Admin (\S+)$/.exec(header);
  if (adminTokenHash === null || match?.[1] === undefined) throw new ApiError('UNAUTHORIZED');
  const given = Buffer.from(hashSecret(match[1]), 'hex');
  const expected = Buffer.from(adminTokenHash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError('UNAUTHORIZED');
  }
}
