import { iconUrl, type PortalApplication } from './model.js';

/** The app's icon, or its initials on a coloured square (decorative: the name is next to it). */
export function AppIcon({
  app,
  size,
}: {
  app: Pick<PortalApplication, 'id' | 'icon' | 'name'>;
  size: number;
}) {
  const url = iconUrl(app, size <= 64 ? 64 : 128);
  const style = { width: size, height: size };
  if (url !== null) return <img className="app-icon" src={url} alt="" style={style} />;
  const initials = app.name
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
  return (
    <span className="app-icon app-icon-initials" aria-hidden="true" style={style}>
      {initials}
    </span>
  );
}
