import { fail, failWith, type Fields, type Wire } from './fields.js';
import { LIMITS, MAX_COMPONENT_ID } from './limits.js';

/** Who sends a message: people may not send components; plain webhooks no interactive ones. */
export type ComponentSender = 'user' | 'bot' | 'app_webhook' | 'webhook';

/**
 * What one validation pass of a message or modal collects: the components in pre-order (to
 * number those without an `id`), and the ids and custom_ids in use (each unique).
 */
export interface BuildContext {
  /** A message's components or a modal's (modals refuse `disabled`, honour `required`). */
  readonly place: 'message' | 'modal';
  readonly sender: ComponentSender;
  readonly order: Wire[];
  readonly ids: Set<number>;
  readonly customIds: Set<string>;
}

/** A message's validation pass: also what its media may reference. */
export interface MessageBuild extends BuildContext {
  /** Makes the ids of unfurled media items. */
  readonly newId: () => string;
  /** The file names of the message's attachments (what `attachment://` may name). */
  readonly attachmentNames: ReadonlySet<string>;
}

/** A fresh pass over a message's or a modal's components. */
export function newBuildContext(place: 'message' | 'modal', sender: ComponentSender): BuildContext {
  return { place, sender, order: [], ids: new Set(), customIds: new Set() };
}

/**
 * Starts the wire object of a component (`type`, then `id`), registered in pre-order: its `id`
 * when given (unique; 0 counts as none), else one is assigned by {@link assignIds}.
 */
export function startComponent(context: BuildContext, fields: Fields, type: number): Wire {
  const id = fields.int('id', { min: 0, max: MAX_COMPONENT_ID }) ?? 0;
  if (id !== 0) {
    if (context.ids.has(id)) {
      fail(fields.at('id'), 'COMPONENT_ID_DUPLICATED', 'Component id cannot be duplicated.');
    }
    context.ids.add(id);
  }
  const wire: Wire = { type, id };
  context.order.push(wire);
  return wire;
}

/** A component's custom_id: 1–100 characters, unique within the message or modal. */
export function claimCustomId(context: BuildContext, fields: Fields): string {
  const customId = fields.requiredString('custom_id', LIMITS.customId);
  if (context.customIds.has(customId)) {
    fail(
      fields.at('custom_id'),
      'COMPONENT_CUSTOM_ID_DUPLICATED',
      'Component custom id cannot be duplicated.',
    );
  }
  context.customIds.add(customId);
  return customId;
}

/**
 * Numbers the components sent without an `id` sequentially from 1 in pre-order, skipping the
 * ids given explicitly (as the platform does).
 */
export function assignIds(context: BuildContext): void {
  let next = 1;
  for (const wire of context.order) {
    if (wire['id'] !== 0) continue;
    while (context.ids.has(next)) next += 1;
    wire['id'] = next;
    context.ids.add(next);
  }
}

/** The component's `type`, checked against the types allowed where it is. */
export function componentType(fields: Fields, allowed: readonly number[]): number {
  const type = fields.raw['type'];
  if (type === undefined || type === null) return failWith(fields.at('type'), 'BASE_TYPE_REQUIRED');
  if (typeof type !== 'number' || !allowed.includes(type)) {
    fail(
      fields.at('type'),
      'UNION_TYPE_CHOICES',
      `Value of field "type" must be one of (${allowed.join(', ')}).`,
    );
  }
  return type;
}
