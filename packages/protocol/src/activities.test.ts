import { ActivityFlags as ReferenceActivityFlags } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { ActivityFlags, activityFlags, withActivityFlags } from './activities.js';

const normalize = (name: string): string => name.replaceAll('_', '').toLowerCase();

describe('ActivityFlags', () => {
  it('match the reference library name for name', () => {
    const reference = new Map(
      Object.entries(ReferenceActivityFlags)
        .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
        .map(([name, value]) => [normalize(name), value]),
    );
    for (const [name, value] of Object.entries(ActivityFlags)) {
      expect({ name, value: reference.get(normalize(name)) }).toEqual({ name, value });
    }
  });
});

describe('activityFlags', () => {
  const { INSTANCE, JOIN, SPECTATE, PARTY_PRIVACY_FRIENDS, PARTY_PRIVACY_VOICE_CHANNEL, EMBEDDED } =
    ActivityFlags;

  it('sets a flag for each member the activity holds', () => {
    expect(activityFlags({})).toBe(0);
    expect(activityFlags({ secrets: { join: 'j' } })).toBe(JOIN);
    expect(activityFlags({ secrets: { spectate: 's' } })).toBe(SPECTATE);
    expect(activityFlags({ secrets: { join: 'j', spectate: 's' } })).toBe(JOIN | SPECTATE);
    expect(activityFlags({ instance: true })).toBe(INSTANCE);
    expect(activityFlags({ instance: false })).toBe(0);
    expect(activityFlags({ party: { privacy: 1 } })).toBe(
      PARTY_PRIVACY_FRIENDS | PARTY_PRIVACY_VOICE_CHANNEL,
    );
    expect(activityFlags({ party: { privacy: 0 } })).toBe(0);
    expect(activityFlags({ secrets: { join: '' } })).toBe(0);
  });

  it('clears what the activity does not hold, keeps the client’s other bits', () => {
    expect(activityFlags({ flags: JOIN | SPECTATE | INSTANCE })).toBe(0);
    expect(activityFlags({ flags: EMBEDDED | JOIN })).toBe(EMBEDDED);
    expect(activityFlags({ flags: EMBEDDED, secrets: { join: 'j' } })).toBe(EMBEDDED | JOIN);
    expect(activityFlags({ flags: 2 ** 40 + EMBEDDED })).toBe(EMBEDDED);
    expect(activityFlags({ flags: 1.5 })).toBe(0);
  });

  it('leaves flags out when there are none', () => {
    expect(withActivityFlags({ name: 'g', flags: 0 })).toEqual({ name: 'g' });
    expect(withActivityFlags({ name: 'g', secrets: { join: 'j' } })).toEqual({
      name: 'g',
      secrets: { join: 'j' },
      flags: JOIN,
    });
  });
});
