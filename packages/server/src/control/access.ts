/**
 * @module control/access: who may call the controls under `/_guildhall/v1/`. A client on this
 * machine (a loopback peer, no proxy between: no `Forwarded` or `X-Forwarded-For`), or any
 * client with the operator token (`Authorization: Admin <token>`, GUILDHALL_ADMIN_TOKEN) or the
 * run token the server wrote in its data folder (`Authorization: Bearer <token>`,
 * `<data-dir>/control.json`, what the CLI sends).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { hashSecret } from '../domain/credentials.js';
import { isLoopbackPeer } from '../domain/loopback.js';
import { ApiError } from '../errors/index.js';
import { requireOperator } from '../http/operator.js';

export interface ControlAccess {
  /** SHA-256 (hex) of the operator token; null: none configured. */
  adminTokenHash: string | null;
  /** The run token of this process (control.json); null before it listens. */
  runToken: () => string | null;
}

/** Whether a request comes straight from this machine (no proxy said it forwards another). */
export function fromThisMachine(request: FastifyRequest): boolean {
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !forwarded && isLoopbackPeer(request.raw.socket.remoteAddress);
}

/** Whether the request carries this process's run token. */
export function carriesRunToken(request: FastifyRequest, access: ControlAccess): boolean {
  const token = access.runToken();
  const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
  if (token === null || match?.[1] === undefined) return false;
  const given = Buffer.from(hashSecret(match[1]), 'hex');
  const expected = Buffer.from(hashSecret(token), 'hex');
  return timingSafeEqual(given, expected);
}

/**
 * Refuses (401) a caller that is neither on this machine nor holds a token; `loopback: false`
 * (the CLI's route) asks for a token even on this machine.
 */
export function checkControlAccess(
  request: FastifyRequest,
  access: ControlAccess,
  options: { loopback: boolean } = { loopback: true },
): void {
  if (options.loopback && fromThisMachine(request)) return;
  if (carriesRunToken(request, access)) return;
  if (request.headers.authorization?.startsWith('Admin ') === true) {
    requireOperator(request, access.adminTokenHash);
    return;
  }
  throw new ApiError('UNAUTHORIZED');
}
