import { MessageFlags } from '@guildhall/protocol';
import { actionRowWire } from './actionRow.js';
import {
  assignIds,
  componentType,
  newBuildContext,
  type ComponentSender,
  type MessageBuild,
} from './context.js';
import { asArray, fail, Fields, type Wire } from './fields.js';
import { ComponentTypes as T, LIMITS } from './limits.js';
import { V2_TOP_LEVEL_TYPES, v2ComponentWire } from './v2.js';

/** What a message's components are checked against besides themselves. */
export interface MessageComponentsOptions {
  /** The message's flags after the change (IS_COMPONENTS_V2 1 << 15 selects the v2 rules). */
  flags: number;
  /** Whether the message keeps non-empty `content` (refused with IS_COMPONENTS_V2). */
  hasContent: boolean;
  /** Whether the message keeps embeds (refused with IS_COMPONENTS_V2). */
  hasEmbeds: boolean;
  /** Whether the request carries a poll (refused with IS_COMPONENTS_V2). */
  hasPoll?: boolean;
  /** Whether the request carries stickers (refused with IS_COMPONENTS_V2). */
  hasStickers?: boolean;
  /**
   * Who sends it: people ('user') may send no components; bots and application-owned webhooks
   * any; plain webhooks ('webhook', with `with_components=true`) only non-interactive ones.
   */
  sender: ComponentSender;
  /** Makes the ids of unfurled media items (thumbnails, gallery items, files): `deps.ids`. */
  ids: () => string;
  /**
   * The file names of the message's attachments once the change is made: `attachment://<name>`
   * in a Thumbnail, Media Gallery item or File must name one of them.
   */
  attachmentNames: readonly string[];
}

/** The fields IS_COMPONENTS_V2 rules out, as the request names them. */
const LEGACY_FIELDS = [
  ['content', 'hasContent'],
  ['embeds', 'hasEmbeds'],
  ['poll', 'hasPoll'],
  ['sticker_ids', 'hasStickers'],
] as const;

/**
 * Checks a message's `components` (create or edit, by a bot, a webhook or an interaction
 * response) against every rule of components v1 and v2, and returns them as stored and sent:
 * defaults filled, every component numbered (`id`), media given ids. Throws 50035 with the
 * path of the first offending field (prefix `components`).
 *
 * Without IS_COMPONENTS_V2: up to 5 action rows. With it: no content, embeds, poll or stickers;
 * Action Row, Section, Text Display, Media Gallery, File, Separator and Container at the top;
 * at most 40 components counting nested ones.
 */
export function validateMessageComponents(
  components: readonly unknown[],
  options: MessageComponentsOptions,
): Wire[] {
  const v2 = (options.flags & MessageFlags.IS_COMPONENTS_V2) !== 0;
  if (v2) {
    for (const [field, key] of LEGACY_FIELDS) {
      if (options[key] === true) {
        fail(
          [field],
          'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
          `The '${field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2`,
        );
      }
    }
  }
  if (components.length === 0) return [];
  if (options.sender === 'user') {
    fail(['components'], 'COMPONENT_SENDER_NOT_ALLOWED', 'Only applications can send components.');
  }
  const build: MessageBuild = {
    ...newBuildContext('message', options.sender),
    newId: options.ids,
    attachmentNames: new Set(options.attachmentNames),
  };
  const max = v2 ? LIMITS.v2Total : LIMITS.legacyRows;
  const top = asArray(components, ['components'], { min: 0, max });
  const wires = top.map((item, index) => {
    const fields = new Fields(item, ['components', index]);
    if (!v2) {
      componentType(fields, [T.ACTION_ROW]);
      return actionRowWire(build, fields);
    }
    return v2ComponentWire(build, fields, componentType(fields, V2_TOP_LEVEL_TYPES));
  });
  if (v2 && build.order.length > LIMITS.v2Total) {
    fail(
      ['components'],
      'COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED',
      `A message can have at most ${String(LIMITS.v2Total)} components, nested ones included.`,
    );
  }
  assignIds(build);
  return wires;
}
