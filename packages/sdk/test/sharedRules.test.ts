/**
 * The rules the TypeScript SDK shares with the native SDK, held to the cases both suites read
 * (fixtures/social-rules.json; packages/sdk-cpp/test/rules_test.cpp reads the same file).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RelationshipGroupType, type RelationshipType } from '../src/enums.js';
import { sortGuildChannels, type WireGuildChannel } from '../src/guilds.js';
import {
  cacheAnswers,
  compareDisplayNames,
  compareFriends,
  friendGroup,
  mergeIds,
} from '../src/rules.js';

interface Fixture {
  displayNameOrder: { name: string; groups: string[][] }[];
  friendsOrder: { name: string; friends: { id: string; name: string }[]; expect: string[] }[];
  friendGroups: {
    name: string;
    discord: number;
    game: number;
    status: string | null;
    activityApplications: string[];
    applicationId: string | null;
    expect: keyof typeof RelationshipGroupType | null;
  }[];
  guildChannels: {
    name: string;
    channels: { id: string; type: number; position: number; parent_id: string | null }[];
    expect: string[];
  }[];
  messageCache: {
    name: string;
    cached: { ids: string[]; complete: boolean } | null;
    limit: number;
    expect: 'cache' | 'server';
  }[];
  mergeIds: { name: string; history: string[]; add: string[]; expect: string[] }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('fixtures/social-rules.json', import.meta.url), 'utf8'),
) as Fixture;

describe('the rules shared with the native SDK', () => {
  it.each(fixture.displayNameOrder)('display names: $name', ({ groups }) => {
    groups.forEach((group, i) => {
      for (const a of group) {
        for (const b of group) expect(compareDisplayNames(a, b), `${a} = ${b}`).toBe(0);
        for (const later of groups.slice(i + 1)) {
          for (const b of later) {
            expect(compareDisplayNames(a, b), `${a} < ${b}`).toBeLessThan(0);
            expect(compareDisplayNames(b, a), `${b} > ${a}`).toBeGreaterThan(0);
          }
        }
      }
    });
  });

  it.each(fixture.friendsOrder)('friends: $name', ({ friends, expect: order }) => {
    expect([...friends].sort(compareFriends).map((friend) => friend.id)).toEqual(order);
  });

  it.each(fixture.friendGroups)('groups: $name', (c) => {
    const group = friendGroup({
      discord: c.discord as RelationshipType,
      game: c.game as RelationshipType,
      status: c.status,
      playingThisGame: c.applicationId !== null && c.activityApplications.includes(c.applicationId),
    });
    expect(group).toBe(c.expect === null ? null : RelationshipGroupType[c.expect]);
  });

  it.each(fixture.guildChannels)('guild channels: $name', ({ channels, expect: order }) => {
    const wire = channels.map((c): WireGuildChannel => ({
      ...c,
      name: c.id,
      linkable: false,
      viewable_and_writeable_by_all_members: false,
      linked_lobby: null,
    }));
    expect(sortGuildChannels(wire).map((c) => c.id)).toEqual(order);
  });

  it.each(fixture.messageCache)('message cache: $name', ({ cached, limit, expect: answer }) => {
    expect(cacheAnswers(cached ?? undefined, limit)).toBe(answer === 'cache');
  });

  it.each(fixture.mergeIds)('merging ids: $name', ({ history, add, expect: ids }) => {
    expect(mergeIds({ ids: history, complete: false }, add).ids).toEqual(ids);
  });
});
