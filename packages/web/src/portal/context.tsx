import { createContext, useContext, type ReactNode } from 'react';
import { api } from '../lib/api.js';
import type { PortalApplication } from './model.js';

interface ApplicationContextValue {
  app: PortalApplication;
  /** Replaces the app shown everywhere (after a PATCH, with its answer). */
  setApp: (app: PortalApplication) => void;
}

const ApplicationContext = createContext<ApplicationContextValue | null>(null);

export function ApplicationProvider({
  value,
  children,
}: {
  value: ApplicationContextValue;
  children: ReactNode;
}) {
  return <ApplicationContext value={value}>{children}</ApplicationContext>;
}

/** The application whose settings page is open. */
export function useApplication(): ApplicationContextValue {
  const value = useContext(ApplicationContext);
  if (value === null) throw new Error('useApplication outside an application page');
  return value;
}

/** `PATCH /applications/{id}` with only the given fields; resolves with the saved app. */
export function patchApplication(
  id: string,
  body: Partial<Record<keyof PortalApplication, unknown>>,
): Promise<PortalApplication> {
  return api<PortalApplication>('PATCH', `/applications/${id}`, { body });
}
