import {
  ApplicationFlags as ReferenceApplicationFlags,
  AttachmentFlags as ReferenceAttachmentFlags,
  ChannelFlags as ReferenceChannelFlags,
  ChannelType as ReferenceChannelType,
  UserFlags as ReferenceUserFlags,
  UserPremiumType as ReferencePremiumType,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import {
  ApplicationFlags,
  AttachmentFlags,
  ChannelFlags,
  ChannelTypes,
  PremiumTypes,
  UserFlags,
  VOICE_CHANNEL_TYPES,
  applicationFlagsWire,
  isVoiceChannelType,
} from './flags.js';

const normalize = (name: string): string => name.replaceAll('_', '').toLowerCase();

function expectSameAsReference(ours: Record<string, number | bigint>, reference: object): void {
  const byName = new Map(
    Object.entries(reference)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([name, value]) => [normalize(name), value]),
  );
  for (const [name, value] of Object.entries(ours)) {
    const expected = byName.get(normalize(name));
    expect({ name, value: expected === undefined ? undefined : BigInt(expected) }).toEqual({
      name,
      value: BigInt(value),
    });
  }
}

describe('reference values', () => {
  it.each([
    ['ApplicationFlags', ApplicationFlags, ReferenceApplicationFlags],
    ['UserFlags', UserFlags, ReferenceUserFlags],
    ['ChannelTypes', ChannelTypes, ReferenceChannelType],
    ['ChannelFlags', ChannelFlags, ReferenceChannelFlags],
    ['AttachmentFlags', AttachmentFlags, ReferenceAttachmentFlags],
    ['PremiumTypes', PremiumTypes, ReferencePremiumType],
  ] as const)('%s match the reference library name for name', (_, ours, reference) => {
    expectSameAsReference(ours, reference);
  });
});

describe('ApplicationFlags', () => {
  it('holds the documented bits', () => {
    expect(ApplicationFlags.APPLICATION_AUTO_MODERATION_RULE_CREATE_BADGE).toBe(1n << 6n);
    expect(ApplicationFlags.GATEWAY_PRESENCE).toBe(1n << 12n);
    expect(ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED).toBe(1n << 19n);
    expect(ApplicationFlags.APPLICATION_COMMAND_BADGE).toBe(1n << 23n);
  });
});

describe('applicationFlagsWire', () => {
  it('keeps bits 0 to 30 in flags and everything in flags_new', () => {
    const bits = (1n << 30n) | (1n << 31n) | (1n << 40n) | ApplicationFlags.EMBEDDED;
    expect(applicationFlagsWire(bits)).toEqual({
      flags: 2 ** 30 + 2 ** 17,
      flags_new: '1102732984320',
    });
  });

  it('gives flags 0 when only bits above 30 are set', () => {
    expect(applicationFlagsWire(1n << 31n)).toEqual({ flags: 0, flags_new: '2147483648' });
  });

  it('keeps flags a non-negative 32-bit integer', () => {
    const { flags } = applicationFlagsWire((1n << 64n) - 1n);
    expect(flags).toBe(2 ** 31 - 1);
    expect(flags | 0).toBe(flags);
  });

  it('writes 0 for no flags and rejects negative sets', () => {
    expect(applicationFlagsWire(0n)).toEqual({ flags: 0, flags_new: '0' });
    expect(() => applicationFlagsWire(-1n)).toThrow(TypeError);
  });
});

describe('ChannelFlags', () => {
  it('marks obfuscated channels with bit 17', () => {
    expect(ChannelFlags.CHANNEL_OBFUSCATED).toBe(131072);
  });
});

describe('AttachmentFlags', () => {
  it('marks spoilers with bit 3', () => {
    expect(AttachmentFlags.IS_SPOILER).toBe(8);
  });
});

describe('PremiumTypes', () => {
  it('numbers the types 0 to 3', () => {
    expect(Object.values(PremiumTypes)).toEqual([0, 1, 2, 3]);
  });
});

describe('voice channel types', () => {
  it('are the voice and stage channel types', () => {
    expect(VOICE_CHANNEL_TYPES).toEqual([ChannelTypes.GUILD_VOICE, ChannelTypes.GUILD_STAGE_VOICE]);
    expect(isVoiceChannelType(2)).toBe(true);
    expect(isVoiceChannelType(13)).toBe(true);
  });

  it('exclude every other channel type', () => {
    const others = Object.values(ChannelTypes).filter((t) => t !== 2 && t !== 13);
    expect(others.filter(isVoiceChannelType)).toEqual([]);
  });
});
