import type { APIEmbed } from 'discord-api-types/v10';
import { Markdown } from './Markdown.js';
import { safeUrl } from './safeUrl.js';

function hex(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}

/** A link from an embed when its URL is http(s), else the text alone. */
function MaybeLink({ url, children }: { url: string | undefined; children: React.ReactNode }) {
  const safe = url === undefined ? null : safeUrl(url);
  if (safe === null) return <>{children}</>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function EmbedView({ embed, guildId }: { embed: APIEmbed; guildId: string | null }) {
  const image = embed.image?.url === undefined ? null : safeUrl(embed.image.url);
  const thumbnail = embed.thumbnail?.url === undefined ? null : safeUrl(embed.thumbnail.url);
  return (
    <div
      className="embed"
      // The embed's colour as its side bar (a style prop: the CSP allows no style strings).
      style={embed.color === undefined ? undefined : { borderLeftColor: hex(embed.color) }}
    >
      <div className="embed-body">
        {embed.author === undefined ? null : (
          <p className="embed-author">
            <MaybeLink url={embed.author.url}>{embed.author.name}</MaybeLink>
          </p>
        )}
        {embed.title === undefined ? null : (
          <p className="embed-title">
            <MaybeLink url={embed.url}>{embed.title}</MaybeLink>
          </p>
        )}
        {embed.description === undefined ? null : (
          <div className="embed-description">
            <Markdown content={embed.description} guildId={guildId} />
          </div>
        )}
        {embed.fields === undefined || embed.fields.length === 0 ? null : (
          <dl className="embed-fields">
            {embed.fields.map((field, i) => (
              <div key={i} className={field.inline === true ? 'embed-field inline' : 'embed-field'}>
                <dt>{field.name}</dt>
                <dd>
                  <Markdown content={field.value} guildId={guildId} />
                </dd>
              </div>
            ))}
          </dl>
        )}
        {image === null ? null : <img className="embed-image" src={image} alt="" loading="lazy" />}
        {embed.footer === undefined ? null : <p className="embed-footer">{embed.footer.text}</p>}
      </div>
      {thumbnail === null ? null : (
        <img className="embed-thumbnail" src={thumbnail} alt="" loading="lazy" />
      )}
    </div>
  );
}

/** A message's embeds (a bot's answers often have no content but these). */
export function Embeds({ embeds, guildId }: { embeds: APIEmbed[]; guildId: string | null }) {
  if (embeds.length === 0) return null;
  return (
    <div className="embeds">
      {embeds.map((embed, i) => (
        <EmbedView key={i} embed={embed} guildId={guildId} />
      ))}
    </div>
  );
}
