import { z } from 'zod';
import { parseInput } from '../../http/validate.js';
import { WebhookMessageBody, type WebhookMessageInput } from '../messages/index.js';

const Text = z.string().nullable().optional();

/** A Slack attachment (WebhookSlackEmbed); Slack's field `title`/`short` are read as well. */
const SlackAttachment = z.object({
  title: Text,
  title_link: Text,
  text: Text,
  color: Text,
  ts: z.number().int().nullable().optional(),
  pretext: Text,
  footer: Text,
  footer_icon: Text,
  author_name: Text,
  author_link: Text,
  author_icon: Text,
  image_url: Text,
  thumb_url: Text,
  fields: z
    .array(
      z.object({
        name: Text,
        title: Text,
        value: Text,
        inline: z.boolean().nullable().optional(),
        short: z.boolean().nullable().optional(),
      }),
    )
    .max(25)
    .nullable()
    .optional(),
});

/** The body of POST /webhooks/{id}/{token}/slack (SlackWebhook). */
export const SlackBody = z.object({
  text: z.string().max(2000).nullable().optional(),
  username: Text,
  icon_url: Text,
  attachments: z.array(SlackAttachment).max(10).nullable().optional(),
});

/** Slack's named attachment colours. */
const NAMED_COLORS: Record<string, number> = {
  good: 0x2eb886,
  warning: 0xdaa038,
  danger: 0xa30200,
};

/** `#rgb`, `#rrggbb` or a Slack colour name as an embed colour; undefined for anything else. */
function colorOf(value: string | null | undefined): number | undefined {
  if (value == null) return undefined;
  const named = NAMED_COLORS[value];
  if (named !== undefined) return named;
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value);
  if (match?.[1] === undefined) return undefined;
  const short = match[1];
  const hex = short.length === 3 ? short.replace(/[0-9a-f]/gi, (c) => c + c) : short;
  return parseInt(hex, 16);
}

/**
 * Slack's message markup as markdown: `<url|label>` links, `<url>`, `<!everyone>`/`<!here>`
 * and the three escaped entities.
 */
export function slackText(text: string): string {
  return text
    .replace(/<!(everyone|here|channel)>/g, (_, name: string) =>
      name === 'channel' ? '@here' : `@${name}`,
    )
    .replace(/<((?:https?|mailto):[^|>\s]+)\|([^>]+)>/g, '[$2]($1)')
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const defined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null));

/**
 * A Slack-compatible body as an execute: `text` is the content (with the attachments'
 * pretexts), `username`, `icon_url` as avatar_url, each attachment an embed. The result is
 * validated as any execute (lengths, 50035 with the embed paths).
 */
export function slackToExecute(body: unknown): WebhookMessageInput {
  const slack = parseInput(SlackBody, body);
  const attachments = slack.attachments ?? [];
  const pretexts = attachments.flatMap((a) => (a.pretext == null ? [] : [slackText(a.pretext)]));
  const content = [slack.text == null ? null : slackText(slack.text), ...pretexts]
    .filter((part): part is string => part !== null && part !== '')
    .join('\n');
  const embeds = attachments.map((a) =>
    defined({
      title: a.title ?? undefined,
      url: a.title_link ?? undefined,
      description: a.text == null ? undefined : slackText(a.text),
      color: colorOf(a.color),
      timestamp: a.ts == null ? undefined : new Date(a.ts * 1000).toISOString(),
      footer: a.footer == null ? undefined : defined({ text: a.footer, icon_url: a.footer_icon }),
      author:
        a.author_name == null
          ? undefined
          : defined({ name: a.author_name, url: a.author_link, icon_url: a.author_icon }),
      image: a.image_url == null ? undefined : { url: a.image_url },
      thumbnail: a.thumb_url == null ? undefined : { url: a.thumb_url },
      fields:
        a.fields == null
          ? undefined
          : a.fields.map((f) => ({
              name: f.name ?? f.title ?? '\u200b',
              value: f.value == null || f.value === '' ? '\u200b' : slackText(f.value),
              inline: f.inline ?? f.short ?? false,
            })),
    }),
  );
  return parseInput(
    WebhookMessageBody,
    defined({
      content: content === '' ? undefined : content,
      username: slack.username ?? undefined,
      avatar_url: slack.icon_url ?? undefined,
      embeds: embeds.length === 0 ? undefined : embeds,
    }),
  );
}
