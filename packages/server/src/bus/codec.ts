import type { BusEvent } from './types.js';

/*
 * Both drivers send events through this codec, so the in-process bus behaves as NATS does:
 * subscribers get a copy, and data JSON cannot carry fails at publish on either driver.
 */

/** Encodes an event for the wire; throws `TypeError` for data JSON cannot carry (a bigint). */
export function encodeEvent(event: BusEvent): string {
  const { type, topic, data, publishedAt, trace } = event;
  return JSON.stringify(
    trace === undefined
      ? { type, topic, data, publishedAt }
      : { type, topic, data, publishedAt, trace },
  );
}

/** Decodes an event from the wire; throws for text that is not one (SyntaxError or TypeError). */
export function decodeEvent(text: string): BusEvent {
  const value: unknown = JSON.parse(text);
  if (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    typeof value.type === 'string' &&
    'topic' in value &&
    typeof value.topic === 'string' &&
    'publishedAt' in value &&
    typeof value.publishedAt === 'number'
  ) {
    const trace = (value as { trace?: unknown }).trace;
    return {
      type: value.type,
      topic: value.topic,
      data: (value as { data?: unknown }).data,
      publishedAt: value.publishedAt,
      ...(typeof trace === 'string' ? { trace } : {}),
    };
  }
  throw new TypeError('not a bus event');
}
