import {
  MessageFlags as ReferenceMessageFlags,
  MessageType as ReferenceMessageType,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { MessageFlags, MessageTypes } from './messages.js';

const normalize = (name: string): string => name.replaceAll('_', '').toLowerCase();

function referenceByName(reference: object): Map<string, number> {
  return new Map(
    Object.entries(reference)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([name, value]) => [normalize(name), value]),
  );
}

describe('reference values', () => {
  it.each([
    ['MessageTypes', MessageTypes, ReferenceMessageType],
    ['MessageFlags', MessageFlags, ReferenceMessageFlags],
  ] as const)('%s match the reference library name for name', (_, ours, reference) => {
    const byName = referenceByName(reference);
    for (const [name, value] of Object.entries(ours)) {
      expect({ name, value: byName.get(normalize(name)) }).toEqual({ name, value });
    }
  });
});

describe('MessageFlags', () => {
  it('holds the bits the server sets and lets senders set', () => {
    expect(MessageFlags.SUPPRESS_EMBEDS).toBe(4);
    expect(MessageFlags.SUPPRESS_NOTIFICATIONS).toBe(4096);
    expect(MessageFlags.HAS_SNAPSHOT).toBe(16384);
  });
});

describe('MessageTypes', () => {
  it('numbers a reply 19 and a pin notice 6', () => {
    expect(MessageTypes.REPLY).toBe(19);
    expect(MessageTypes.CHANNEL_PINNED_MESSAGE).toBe(6);
  });
});
