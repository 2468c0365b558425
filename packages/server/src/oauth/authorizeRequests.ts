/**
 * The Connected Game entry point: a person, in the web client, asks a game they are playing to
 * link their account. AUTHORIZE_REQUEST goes to that person's SDK sessions of that application
 * and their own clients (gateway/routing.ts), whose RPC daemon passes it to the game's RPC
 * connection (docs/rpc.md); the game's `registerAuthorizeRequestCallback` then starts
 * `authorize()`. Nothing is stored: a game that is not connected simply does not hear it.
 *
 * @module
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../errors/index.js';
import { afterWrite } from '../events/afterCommit.js';
import type { Storage } from '../storage/index.js';

/** AUTHORIZE_REQUEST: the game asked to start `authorize()`. */
export interface AuthorizeRequestPayload {
  application_id: string;
}

declare module '../domain/dispatch.js' {
  interface DispatchPayloads {
    AUTHORIZE_REQUEST: AuthorizeRequestPayload;
  }
}

export function createAuthorizeRequests(deps: { storage: Storage }) {
  return {
    /** Sends AUTHORIZE_REQUEST to the user's game sessions of the app; 10002 for no such app. */
    async request(userId: string, applicationId: string): Promise<void> {
      const application = isSnowflake(applicationId)
        ? await deps.storage.applications.findById(applicationId)
        : null;
      if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
      // The services' storage publishes what it announces at once (no transaction to wait for).
      afterWrite(deps.storage, {
        type: 'AUTHORIZE_REQUEST',
        guildId: null,
        userIds: [userId],
        applicationId,
        data: { application_id: applicationId },
      });
    },
  };
}

export type AuthorizeRequests = ReturnType<typeof createAuthorizeRequests>;
