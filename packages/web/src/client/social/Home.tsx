/**
 * The home page's mount points the shell imports (I15 contracts): the sidebar at /channels/@me…
 * and the friends list in the main column at /channels/@me. The DM conversation
 * (/channels/@me/:channelId) is the chat's MessagePane.
 */
export { FriendsView } from './FriendsView.js';
export { HomeSidebar } from './HomeSidebar.js';
