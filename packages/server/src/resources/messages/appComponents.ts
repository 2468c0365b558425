import { MessageFlags } from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';

/** Who sends a message's components: plain webhooks may send only non-interactive ones. */
export interface ComponentCheck {
  flags: number;
  hasContent: boolean;
  hasEmbeds: boolean;
  sender: 'user' | 'bot' | 'app_webhook' | 'webhook';
}

/**
 * The components of a webhook's or interaction's message, checked: with IS_COMPONENTS_V2 no
 * content or embeds. Replaced by the components resource's `validateMessageComponents` (the
 * whole rule set) once merged.
 */
export function checkComponents(components: readonly unknown[], check: ComponentCheck): unknown[] {
  if ((check.flags & MessageFlags.IS_COMPONENTS_V2) !== 0) {
    if (check.hasContent) {
      throw invalidField(
        ['content'],
        'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
        "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
      );
    }
    if (check.hasEmbeds) {
      throw invalidField(
        ['embeds'],
        'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
        "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
      );
    }
  }
  return [...components];
}
