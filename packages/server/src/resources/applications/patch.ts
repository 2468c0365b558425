/**
 * What a PATCH of an application changes: the fields its caller may set (a bot token fewer than
 * the owner's session), each checked (the self-serve intents, the interactions endpoint, the
 * event webhooks) and its images stored, as one ApplicationPatch.
 */
import { invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ApplicationPatch, ApplicationRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { storeImage } from '../imageUploads.js';
import type { InteractionsEndpoint } from '../interactions/index.js';
import { eventWebhooksPatch, type VerifyEventWebhooksUrl } from './eventWebhooks.js';
import { installPatch } from './install.js';
import { intentReview } from './intentReview.js';
import { SELF_SERVE_APPLICATION_FLAGS, type ModifyApplicationInput } from './schemas.js';

/** What the checks of a PATCH need: the application service's deps, less its secrets. */
export interface ApplicationPatchDeps extends Pick<ServiceDeps, 'storage' | 'blobs'> {
  webhookEvents: { verifyUrl: VerifyEventWebhooksUrl };
  interactionsEndpoint: Pick<InteractionsEndpoint, 'verifyUrl'>;
  privilegedIntentReviewThreshold: number;
}

export function createApplicationPatches(deps: ApplicationPatchDeps) {
  const { storage, blobs } = deps;

  /**
   * The self-serve rule (intentReview.ts, the gateway's too): an app reaching fewer users than
   * the review threshold turns its limited intent flags on itself; from the threshold, only a
   * review does.
   */
  const requireSelfServeIntents = async (application: ApplicationRecord) => {
    const threshold = deps.privilegedIntentReviewThreshold;
    const { users, required } = await intentReview(storage, application.id, threshold);
    if (!required) return;
    throw invalidField(
      ['flags'],
      'PRIVILEGED_INTENTS_REVIEW_REQUIRED',
      `This app reaches ${users} users (${deps.privilegedIntentReviewThreshold} or more): ` +
        'privileged intents it does not have yet need a review. Apply for them with the ' +
        'platform instead of turning them on here.',
    );
  };

  /**
   * The patch of a PATCH, checked, with the private channel obfuscation it sets (kept beside
   * the application, for the gateway).
   */
  const patchOf = async (
    principal: Principal,
    application: ApplicationRecord,
    input: ModifyApplicationInput,
  ): Promise<{ patch: ApplicationPatch; obfuscation: boolean | undefined }> => {
    const patch: ApplicationPatch = {};
    if (input.description !== undefined) {
      const description = input.description;
      patch.description =
        description === null
          ? ''
          : typeof description === 'string'
            ? description
            : description.default;
    }
    if (input.flags !== undefined) {
      const requested = BigInt(input.flags ?? 0);
      if ((requested & ~SELF_SERVE_APPLICATION_FLAGS) !== 0n) {
        throw invalidField(
          ['flags'],
          'APPLICATION_FLAGS_INVALID',
          'Only the limited gateway intent flags can be set.',
        );
      }
      const turnedOn = requested & ~application.flags;
      if (turnedOn !== 0n) await requireSelfServeIntents(application);
      patch.flags = (application.flags & ~SELF_SERVE_APPLICATION_FLAGS) | requested;
    }
    const endpointUrl = input.interactions_endpoint_url;
    if (endpointUrl !== undefined) {
      // A new URL is kept only once it answers the checks; the same URL again is not checked.
      if (endpointUrl !== null && endpointUrl !== application.interactionsEndpointUrl) {
        await deps.interactionsEndpoint.verifyUrl(application, endpointUrl);
      }
      patch.interactionsEndpointUrl = endpointUrl;
    }
    Object.assign(
      patch,
      await eventWebhooksPatch(application, input, deps.webhookEvents.verifyUrl),
    );
    if (input.tags !== undefined) patch.tags = [...new Set(input.tags ?? [])];
    Object.assign(patch, installPatch(input));
    let obfuscation: boolean | undefined;
    if (principal.kind === 'session') {
      if (input.name !== undefined) patch.name = input.name;
      obfuscation = input.private_channel_obfuscation;
      if (input.social_sdk_terms_accepted !== undefined) {
        patch.socialSdkTermsAccepted = input.social_sdk_terms_accepted;
      }
      if (input.connection_entrypoint_url !== undefined) {
        patch.connectionEntrypointUrl = input.connection_entrypoint_url;
      }
      // Owner-only settings (ModifyOwnedApplicationBody); never from a bot token.
      if (input.redirect_uris !== undefined) {
        patch.redirectUris = [...new Set(input.redirect_uris ?? [])];
      }
      if (input.public_client !== undefined) patch.publicClient = input.public_client;
      if (input.bot_public !== undefined) patch.botPublic = input.bot_public;
      if (input.bot_require_code_grant !== undefined) {
        patch.botRequireCodeGrant = input.bot_require_code_grant;
      }
      if (input.device_flow_enabled !== undefined) {
        patch.deviceFlowEnabled = input.device_flow_enabled;
      }
      if (input.large_bot_sharding !== undefined) {
        patch.largeBotSharding = input.large_bot_sharding;
      }
    }
    if (input.icon !== undefined) {
      patch.icon = await storeImage(
        blobs,
        { field: 'icon', value: input.icon },
        (hash, ext) => `app-icons/${application.id}/${hash}.${ext}`,
      );
    }
    if (input.cover_image !== undefined) {
      // The platform keeps the cover beside the icon, under app-icons/ (its CDN's layout).
      patch.coverImage = await storeImage(
        blobs,
        { field: 'cover_image', value: input.cover_image },
        (hash, ext) => `app-icons/${application.id}/${hash}.${ext}`,
      );
    }
    return { patch, obfuscation };
  };

  return { patchOf };
}
