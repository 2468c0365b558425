import { PermissionFlags as P } from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';
import type { Repositories, RoleRecord } from '../../storage/index.js';
import type { AllowedMentionsInput } from './schemas.js';

const USER_MENTION = /<@!?(\d{1,20})>/g;
const ROLE_MENTION = /<@&(\d{1,20})>/g;
const EVERYONE = /@(everyone|here)/;
/** The platform's cap on users and roles one message resolves. */
const MAX_MENTIONS = 100;

export interface ResolvedMentions {
  userIds: string[];
  roleIds: string[];
  everyone: boolean;
}

function idsIn(content: string, pattern: RegExp): string[] {
  const ids = new Set<string>();
  for (const match of content.matchAll(pattern)) {
    if (match[1] !== undefined) ids.add(match[1]);
    if (ids.size >= MAX_MENTIONS) break;
  }
  return [...ids];
}

/**
 * Checks allowed_mentions: `parse` and an explicit list of the same kind cannot be combined
 * (the platform's 50035).
 */
export function assertAllowedMentions(allowed: AllowedMentionsInput | null | undefined): void {
  if (allowed == null) return;
  for (const kind of ['users', 'roles'] as const) {
    if ((allowed.parse ?? []).includes(kind) && allowed[kind] != null) {
      throw invalidField(
        ['allowed_mentions', kind],
        'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
        `parse:["${kind}"] and ${kind}: [ids...] are mutually exclusive.`,
      );
    }
  }
}

/**
 * Resolves a message's mentions as the platform does: user mentions of existing users, role
 * mentions of the guild's roles (mentionable ones, or any with MENTION_EVERYONE), @everyone and
 * @here with MENTION_EVERYONE; allowed_mentions narrows each kind (all kinds when absent). A
 * reply's author is mentioned unless `replied_user` is false (its default when allowed_mentions
 * is given).
 */
export async function resolveMentions(
  repos: Repositories,
  input: {
    content: string;
    allowed: AllowedMentionsInput | null | undefined;
    roles: ReadonlyMap<string, RoleRecord>;
    /** Null in a private channel (no roles to mention). */
    guildId: string | null;
    permissions: bigint;
    repliedUserId: string | null;
  },
): Promise<ResolvedMentions> {
  const { content, allowed } = input;
  const parse = allowed == null ? ['users', 'roles', 'everyone'] : (allowed.parse ?? []);
  const allowUser = (id: string) => parse.includes('users') || (allowed?.users ?? []).includes(id);
  const allowRole = (id: string) => parse.includes('roles') || (allowed?.roles ?? []).includes(id);
  const canMentionAll = (input.permissions & P.MENTION_EVERYONE) !== 0n;

  const candidates = content.includes('<@') ? idsIn(content, USER_MENTION).filter(allowUser) : [];
  const repliedUser =
    input.repliedUserId !== null && (allowed == null || allowed.replied_user === true)
      ? input.repliedUserId
      : null;
  const lookup = repliedUser === null ? candidates : [...new Set([repliedUser, ...candidates])];
  const found = lookup.length === 0 ? [] : await repos.users.findByIds(lookup);
  const existing = new Set(found.map((user) => user.id));
  const userIds = lookup.filter((id) => existing.has(id));

  const roleIds = content.includes('<@&')
    ? idsIn(content, ROLE_MENTION).filter((id) => {
        const role = input.roles.get(id);
        return (
          role !== undefined &&
          id !== input.guildId &&
          allowRole(id) &&
          (role.mentionable || canMentionAll)
        );
      })
    : [];
  const everyone = parse.includes('everyone') && canMentionAll && EVERYONE.test(content);
  return { userIds, roleIds, everyone };
}
