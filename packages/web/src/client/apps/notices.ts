/**
 * Messages about interactions whose control is gone by the time the app's outcome arrives (a
 * context menu closes once its command is sent): ModalHost, mounted once in the shell, shows
 * them in an alert region until dismissed.
 */
import { createStore, useStore } from '../../lib/store.js';

export interface AppNotice {
  id: number;
  text: string;
}

const notices = createStore<AppNotice[]>([]);
let next = 0;

export function addNotice(text: string): void {
  next += 1;
  const notice = { id: next, text };
  notices.set((all) => [...all, notice]);
}

export function dismissNotice(id: number): void {
  notices.set((all) => all.filter((n) => n.id !== id));
}

export function useNotices(): AppNotice[] {
  return useStore(notices, (all) => all);
}
