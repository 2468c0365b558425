/** What the interactions service needs from outside the resources (delivery/ implements it). */
import type { ApplicationRecord } from '../../storage/index.js';

/** An interactions endpoint's answer: its status, type and body; or why there was none. */
export type EndpointAnswer =
  | { status: number; contentType: string | null; body: Buffer; error: null }
  | { status: null; error: string };

/** An app's interactions endpoint URL: its check when set, and the signed POST of interactions. */
export interface InteractionsEndpoint {
  /**
   * Checks a URL an app is setting (the platform's PING checks); throws the 50035 on
   * `interactions_endpoint_url` unless it passes.
   */
  verifyUrl(application: ApplicationRecord, url: string): Promise<void>;
  /** POSTs one interaction, signed with the app's key; resolves to the answer, never throws. */
  deliver(
    application: ApplicationRecord,
    request: { url: string; body: string; timeoutMs: number },
  ): Promise<EndpointAnswer>;
}
