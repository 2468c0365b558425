import {
  GatewayCloseCodes as ReferenceCloseCodes,
  GatewayIntentBits as ReferenceIntentBits,
  GatewayOpcodes as ReferenceOpcodes,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import {
  ALL_INTENTS,
  GATEWAY_CLOSE_CODE_INFO,
  GatewayCapabilities,
  GatewayCloseCodes,
  GatewayIntentBits,
  GatewayOpcodes,
  PRIVILEGED_INTENTS,
  canReconnect,
} from './gateway.js';

const normalize = (name: string): string => name.replaceAll('_', '').toLowerCase();

/** The numeric members of a reference enum, by normalised name (drops reverse mappings). */
function referenceValues(reference: object): Map<string, number> {
  return new Map(
    Object.entries(reference)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([name, value]) => [normalize(name), value]),
  );
}

function expectSameAsReference(ours: Record<string, number>, reference: object): void {
  const byName = referenceValues(reference);
  for (const [name, value] of Object.entries(ours)) {
    expect({ name, value: byName.get(normalize(name)) }).toEqual({ name, value });
  }
}

describe('GatewayOpcodes', () => {
  it('matches the reference opcodes, name for name', () => {
    expectSameAsReference(GatewayOpcodes, ReferenceOpcodes);
    expect(new Set(Object.values(GatewayOpcodes))).toEqual(
      new Set(referenceValues(ReferenceOpcodes).values()),
    );
  });

  it('sends Request Channel Info as opcode 43', () => {
    expect(GatewayOpcodes.REQUEST_CHANNEL_INFO).toBe(43);
  });
});

describe('GatewayCloseCodes', () => {
  it('matches the reference close codes, name for name', () => {
    expectSameAsReference(GatewayCloseCodes, ReferenceCloseCodes);
    expect(new Set(Object.values(GatewayCloseCodes))).toEqual(
      new Set(referenceValues(ReferenceCloseCodes).values()),
    );
  });

  it('describes every close code and nothing else', () => {
    expect(Object.keys(GATEWAY_CLOSE_CODE_INFO).map(Number).sort()).toEqual(
      Object.values(GatewayCloseCodes).sort(),
    );
    for (const info of Object.values(GATEWAY_CLOSE_CODE_INFO)) {
      expect(info.description).not.toBe('');
    }
  });
});

describe('canReconnect', () => {
  it('refuses exactly the final close codes', () => {
    const final = Object.values(GatewayCloseCodes).filter((code) => !canReconnect(code));
    expect(final).toEqual([4004, 4010, 4011, 4012, 4013, 4014]);
  });

  it('allows reconnecting after the other table codes', () => {
    for (const code of [4000, 4001, 4002, 4003, 4005, 4007, 4008, 4009]) {
      expect(canReconnect(code)).toBe(true);
    }
  });

  it('allows reconnecting after codes outside the table', () => {
    for (const code of [1000, 1001, 1006, 4006, 4015, 4999]) {
      expect(canReconnect(code)).toBe(true);
    }
  });
});

describe('GatewayIntentBits', () => {
  it('matches the reference intents, name for name', () => {
    expectSameAsReference(GatewayIntentBits, ReferenceIntentBits);
    expect(new Set(Object.values(GatewayIntentBits))).toEqual(
      new Set(referenceValues(ReferenceIntentBits).values()),
    );
  });

  it('marks GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT as privileged', () => {
    expect(PRIVILEGED_INTENTS).toBe((1 << 1) | (1 << 8) | (1 << 15));
  });

  it('ORs every intent into ALL_INTENTS', () => {
    expect(ALL_INTENTS).toBe(0b11_0011_0001_1111_1111_1111_1111);
    expect(ALL_INTENTS & PRIVILEGED_INTENTS).toBe(PRIVILEGED_INTENTS);
    expect(ALL_INTENTS & ((1 << 17) | (1 << 18) | (1 << 19) | (1 << 22) | (1 << 23))).toBe(0);
  });
});

describe('GatewayCapabilities', () => {
  it('opts into channel obfuscation with bit 15', () => {
    expect(GatewayCapabilities.CHANNEL_OBFUSCATION).toBe(32768);
  });
});
