/**
 * What the interactions service needs from outside the resources: the endpoint (delivery/
 * implements it) and activity launches (activities/ implements them).
 */
import type { ApplicationRecord, Repositories } from '../../storage/index.js';
import type { MessageChannelAccess } from '../messages/index.js';

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

/** Activity launches: LAUNCH_ACTIVITY responses and DISCORD_LAUNCH_ACTIVITY entry points. */
export interface InteractionActivities {
  /** Whether the application has an activity to launch (LAUNCH_ACTIVITY is allowed then). */
  hasActivity(repos: Repositories, applicationId: string): Promise<boolean>;
  /**
   * Launches or joins the app's instance in the channel for the person, inside `tx`: throws
   * the platform's errors when the channel takes no activity, the person may not launch one
   * there or the app has none (docs/activities.md). Its update is sent once `tx` commits.
   */
  launch(
    tx: Repositories,
    request: { applicationId: string; userId: string; access: MessageChannelAccess },
  ): Promise<{ instance_id: string }>;
}
