import {
  ButtonStyle,
  ComponentType,
  SeparatorSpacingSize,
  type APIButtonComponent,
  type APIChannel,
  type APIMessageComponent,
  type APIUnfurledMediaItem,
} from 'discord-api-types/v10';
import { Markdown } from '../messages/Markdown.js';
import { safeUrl } from '../messages/safeUrl.js';
import { SelectMenu } from './SelectMenu.js';
import type { ComponentActions } from './useComponentActions.js';

interface TreeProps {
  channel: APIChannel;
  guildId: string | null;
  actions: ComponentActions;
}

const STYLE_CLASS: Record<number, string> = {
  [ButtonStyle.Primary]: 'app-button primary',
  [ButtonStyle.Secondary]: 'app-button secondary',
  [ButtonStyle.Success]: 'app-button success',
  [ButtonStyle.Danger]: 'app-button danger',
  [ButtonStyle.Link]: 'app-button secondary link',
  [ButtonStyle.Premium]: 'app-button premium',
};

/** A button's visible text: its emoji (by name) and label. */
function buttonText(button: APIButtonComponent): string {
  const emoji = 'emoji' in button ? button.emoji?.name : undefined;
  const label = 'label' in button ? button.label : undefined;
  return [emoji, label].filter((part) => part !== undefined && part !== '').join(' ');
}

function AppButton({ button, actions }: { button: APIButtonComponent; actions: ComponentActions }) {
  const text = buttonText(button);
  const className = STYLE_CLASS[button.style] ?? 'app-button secondary';
  if (button.style === ButtonStyle.Link) {
    const href = safeUrl(button.url);
    // Only http(s) links open; any other scheme is shown, inert.
    if (href === null || button.disabled === true) {
      return (
        <button type="button" className={className} disabled>
          {text}
        </button>
      );
    }
    return (
      <a className={className} href={href} target="_blank" rel="noopener noreferrer">
        {text}
        <span className="visually-hidden"> (opens a new tab)</span>
      </a>
    );
  }
  if (button.style === ButtonStyle.Premium) {
    return (
      <span className="app-premium">
        <button type="button" className={className} disabled>
          Premium
        </button>
        <span className="hint"> Purchases are not available in this client.</span>
      </span>
    );
  }
  const customId = button.custom_id;
  const busy = actions.pending.has(customId);
  return (
    <button
      type="button"
      className={className}
      disabled={button.disabled === true || busy}
      aria-busy={busy || undefined}
      onClick={() => {
        actions.send(ComponentType.Button, customId);
      }}
    >
      {text === '' ? customId : text}
    </button>
  );
}

function MediaImage({
  media,
  description,
  spoiler,
}: {
  media: APIUnfurledMediaItem;
  description?: string | null | undefined;
  spoiler?: boolean | undefined;
}) {
  const src = safeUrl(media.proxy_url ?? media.url);
  if (src === null) return null;
  return (
    <img
      className={spoiler === true ? 'app-media spoiler' : 'app-media'}
      src={src}
      alt={description ?? ''}
      loading="lazy"
    />
  );
}

function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One component of a message (v1 rows and every v2 layout component), and its children. */
export function ComponentNode({
  node,
  ...props
}: TreeProps & { node: APIMessageComponent }): React.JSX.Element | null {
  const { actions, channel, guildId } = props;
  switch (node.type) {
    case ComponentType.ActionRow:
      return (
        <div className="action-row">
          {node.components.map((child, i) => (
            <ComponentNode key={child.id ?? i} node={child} {...props} />
          ))}
        </div>
      );
    case ComponentType.Button:
      return <AppButton button={node} actions={actions} />;
    case ComponentType.StringSelect:
    case ComponentType.UserSelect:
    case ComponentType.RoleSelect:
    case ComponentType.MentionableSelect:
    case ComponentType.ChannelSelect:
      return <SelectMenu select={node} channel={channel} actions={actions} />;
    case ComponentType.Section:
      return (
        <div className="app-section">
          <div className="app-section-text">
            {node.components.map((child, i) => (
              <ComponentNode key={child.id ?? i} node={child} {...props} />
            ))}
          </div>
          <div className="app-section-accessory">
            <ComponentNode node={node.accessory} {...props} />
          </div>
        </div>
      );
    case ComponentType.TextDisplay:
      return (
        <div className="app-text">
          <Markdown content={node.content} guildId={guildId} />
        </div>
      );
    case ComponentType.Thumbnail:
      return (
        <MediaImage media={node.media} description={node.description} spoiler={node.spoiler} />
      );
    case ComponentType.MediaGallery:
      return (
        <div className="app-gallery">
          {node.items.map((item, i) => (
            <MediaImage
              key={i}
              media={item.media}
              description={item.description}
              spoiler={item.spoiler}
            />
          ))}
        </div>
      );
    case ComponentType.File: {
      const href = safeUrl(node.file.url);
      const name = node.name ?? 'file';
      return (
        <div className={node.spoiler === true ? 'app-file spoiler' : 'app-file'}>
          {href === null ? (
            <span>{name}</span>
          ) : (
            <a href={href} target="_blank" rel="noopener noreferrer" download={name}>
              {name}
            </a>
          )}{' '}
          <span className="hint">{formatSize(node.size)}</span>
        </div>
      );
    }
    case ComponentType.Separator: {
      const large = node.spacing === SeparatorSpacingSize.Large;
      const className = large ? 'app-separator large' : 'app-separator';
      return node.divider === false ? (
        <div className={className} aria-hidden="true" />
      ) : (
        <hr className={className} />
      );
    }
    case ComponentType.Container: {
      const accent =
        node.accent_color === undefined || node.accent_color === null
          ? undefined
          : `#${node.accent_color.toString(16).padStart(6, '0')}`;
      return (
        <div
          className={node.spoiler === true ? 'app-container spoiler' : 'app-container'}
          style={accent === undefined ? undefined : { borderLeftColor: accent }}
        >
          {node.components.map((child, i) => (
            <ComponentNode key={child.id ?? i} node={child} {...props} />
          ))}
        </div>
      );
    }
    default:
      return null;
  }
}
