import type { APIChannel, APIMessage, APIUser } from 'discord-api-types/v10';

/**
 * The "Apps" entries of a message's or a member's menu: context-menu commands. H4 owns this file
 * and replaces this first version, which has no entries.
 */
export const AppsMenuItems: (props: {
  target: { kind: 'message'; message: APIMessage } | { kind: 'user'; user: APIUser };
  channel: APIChannel;
  onDone: () => void;
}) => React.JSX.Element | null = () => null;
