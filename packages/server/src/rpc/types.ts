/**
 * @module rpc/types: what the daemon's parts share: the person and the client config READY
 * carries, an RPC error a command throws, and the consent decision.
 */
import type { RpcErrorCodes } from '@guildhall/protocol';

/** The person the daemon runs for, as READY and AUTHENTICATE carry them. */
export interface RpcUser {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: string | null;
  bot?: boolean;
  [key: string]: unknown;
}

/** READY's `config`. */
export interface RpcClientConfig {
  cdn_host: string;
  api_endpoint: string;
  environment: string;
}

/** An application as the local authorize route describes it. */
export interface RpcApplication {
  id: string;
  name: string;
  icon: string | null;
  description: string;
}

/** What the person is asked to allow. */
export interface ConsentRequest {
  application: RpcApplication;
  scopes: string[];
}

/** Asks the person; true when they allow. */
export type ConsentDecider = (request: ConsentRequest) => Promise<boolean>;

export type RpcErrorCode = (typeof RpcErrorCodes)[keyof typeof RpcErrorCodes];

/** A command's failure, answered as `evt: "ERROR"` with this code and message. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly code: RpcErrorCode;
  constructor(code: RpcErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
