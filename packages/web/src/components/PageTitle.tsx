import { useEffect } from 'react';

/** The name every page title ends with. */
export const SITE_NAME = 'Guildhall';
/** The portal's part of its pages' titles. */
export const PORTAL = 'Developer Portal';

/**
 * The document title for where a person is, most specific first: "#general · Guild · Guildhall".
 * Missing parts (still loading) are left out.
 */
export function pageTitle(parts: readonly (string | null | undefined)[]): string {
  return [...parts.filter((p): p is string => p != null && p !== ''), SITE_NAME].join(' · ');
}

/** Sets the tab's title while mounted (the next page's title replaces it). */
export function useDocumentTitle(...parts: (string | null | undefined)[]): void {
  const title = pageTitle(parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** {@link useDocumentTitle} for a route that renders a shared page (log in, register). */
export function PageTitle({ parts }: { parts: readonly (string | null | undefined)[] }): null {
  useDocumentTitle(...parts);
  return null;
}
