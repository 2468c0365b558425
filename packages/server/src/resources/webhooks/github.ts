import { z } from 'zod';
import { parseInput } from '../../http/validate.js';
import { WebhookMessageBody, type WebhookMessageInput } from '../messages/index.js';

/** The colours the platform's GitHub embeds use. */
const COLORS = {
  push: 0x7289da,
  opened: 0x009800,
  closed: 0x000000,
  comment: 0xe68d60,
  issue: 0xeb6420,
  other: 0xfcfcfc,
} as const;

/** The most of a body (issue, comment, review) an embed shows. */
const MAX_BODY = 500;
/** The most commits a push embed lists. */
const MAX_COMMITS = 5;

const Loose = z.record(z.string(), z.unknown());
/** The parts of a GitHub event payload the embeds read; everything else is ignored. */
export const GithubBody = z
  .object({
    action: z.string().nullable().optional(),
    ref: z.string().nullable().optional(),
    ref_type: z.string().nullable().optional(),
    repository: Loose.nullable().optional(),
    sender: Loose.nullable().optional(),
  })
  .loose();

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const num = (value: unknown): string =>
  typeof value === 'number' || typeof value === 'string' ? String(value) : '?';

/** Text cut to `max` characters with an ellipsis. */
const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

interface GithubEmbed {
  title: string;
  url?: string | undefined;
  description?: string | undefined;
  color: number;
}

/** The embed of one event, or null for an event the platform does not post (ping, say). */
function embedOf(event: string, payload: Json, repo: string): GithubEmbed | null {
  const action = str(payload['action']);
  switch (event) {
    case 'push': {
      const commits = Array.isArray(payload['commits']) ? payload['commits'].map(obj) : [];
      if (commits.length === 0) return null;
      const branch = (str(payload['ref']) ?? '').replace(/^refs\/heads\//, '');
      const lines = commits.slice(0, MAX_COMMITS).map((c) => {
        const author = obj(c['author']);
        const who = str(author['username']) ?? str(author['name']) ?? '';
        const sha = (str(c['id']) ?? '').slice(0, 7);
        return `[\`${sha}\`](${str(c['url']) ?? ''}) ${cut(firstLine(str(c['message']) ?? ''), 50)} - ${who}`;
      });
      const s = commits.length === 1 ? '' : 's';
      return {
        title: `[${repo}:${branch}] ${String(commits.length)} new commit${s}`,
        url: str(payload['compare']),
        description: lines.join('\n'),
        color: COLORS.push,
      };
    }
    case 'issues':
    case 'pull_request': {
      if (action !== 'opened' && action !== 'closed' && action !== 'reopened') return null;
      const item = obj(payload[event === 'issues' ? 'issue' : 'pull_request']);
      const kind = event === 'issues' ? 'Issue' : 'Pull request';
      const body = str(item['body']);
      return {
        title: `[${repo}] ${kind} ${action}: #${num(item['number'])} ${str(item['title']) ?? ''}`,
        url: str(item['html_url']),
        description: action === 'opened' && body !== undefined ? cut(body, MAX_BODY) : undefined,
        color:
          action === 'closed' ? COLORS.closed : event === 'issues' ? COLORS.issue : COLORS.opened,
      };
    }
    case 'issue_comment':
    case 'pull_request_review_comment': {
      if (action !== 'created') return null;
      const comment = obj(payload['comment']);
      const item = obj(payload[event === 'issue_comment' ? 'issue' : 'pull_request']);
      const on = event === 'issue_comment' ? 'issue' : 'pull request';
      return {
        title: `[${repo}] New comment on ${on} #${num(item['number'])}: ${str(item['title']) ?? ''}`,
        url: str(comment['html_url']),
        description: cut(str(comment['body']) ?? '', MAX_BODY),
        color: COLORS.comment,
      };
    }
    case 'pull_request_review': {
      if (action !== 'submitted') return null;
      const review = obj(payload['review']);
      const item = obj(payload['pull_request']);
      return {
        title: `[${repo}] Pull request review submitted: #${num(item['number'])} ${str(item['title']) ?? ''}`,
        url: str(review['html_url']),
        description:
          str(review['body']) === undefined ? undefined : cut(str(review['body']) ?? '', MAX_BODY),
        color: COLORS.comment,
      };
    }
    case 'commit_comment': {
      const comment = obj(payload['comment']);
      return {
        title: `[${repo}] New comment on commit \`${(str(comment['commit_id']) ?? '').slice(0, 7)}\``,
        url: str(comment['html_url']),
        description: cut(str(comment['body']) ?? '', MAX_BODY),
        color: COLORS.comment,
      };
    }
    case 'create':
    case 'delete': {
      const refType = str(payload['ref_type']) ?? 'ref';
      const ref = str(payload['ref']) ?? '';
      return {
        title:
          event === 'create'
            ? `[${repo}] New ${refType} created: ${ref}`
            : `[${repo}] ${refType} deleted: ${ref}`,
        color: COLORS.other,
      };
    }
    case 'fork': {
      const forkee = obj(payload['forkee']);
      return {
        title: `[${repo}] Fork created: ${str(forkee['full_name']) ?? ''}`,
        url: str(forkee['html_url']),
        color: COLORS.other,
      };
    }
    case 'release': {
      if (action !== 'published') return null;
      const release = obj(payload['release']);
      return {
        title: `[${repo}] New release published: ${str(release['tag_name']) ?? ''}`,
        url: str(release['html_url']),
        color: COLORS.other,
      };
    }
    case 'watch':
      return action === 'started'
        ? { title: `[${repo}] New star added`, color: COLORS.other }
        : null;
    case 'member': {
      if (action !== 'added') return null;
      const member = obj(payload['member']);
      return {
        title: `[${repo}] New collaborator added: ${str(member['login']) ?? ''}`,
        url: str(member['html_url']),
        color: COLORS.other,
      };
    }
    case 'public':
      return { title: `[${repo}] Now open sourced!`, color: COLORS.other };
    default:
      return null;
  }
}

/**
 * A GitHub event (the X-GitHub-Event header names it) as an execute: one embed in the
 * platform's style, by "GitHub", its author the sender. Null for events that post nothing
 * (ping, unsupported events, actions the platform skips); the route still answers 204.
 */
export function githubToExecute(event: string, body: unknown): WebhookMessageInput | null {
  const payload = parseInput(GithubBody, body) as Json;
  const repository = obj(payload['repository']);
  const repo = str(repository['full_name']) ?? str(repository['name']) ?? '';
  const embed = embedOf(event, payload, repo);
  if (embed === null) return null;
  const sender = obj(payload['sender']);
  const login = str(sender['login']);
  return parseInput(WebhookMessageBody, {
    username: 'GitHub',
    embeds: [
      {
        title: cut(embed.title, 256),
        ...(embed.url === undefined ? {} : { url: embed.url }),
        ...(embed.description === undefined || embed.description === ''
          ? {}
          : { description: embed.description }),
        color: embed.color,
        ...(login === undefined
          ? {}
          : {
              author: {
                name: login,
                ...(str(sender['html_url']) === undefined ? {} : { url: str(sender['html_url']) }),
                ...(str(sender['avatar_url']) === undefined
                  ? {}
                  : { icon_url: str(sender['avatar_url']) }),
              },
            }),
      },
    ],
  });
}
