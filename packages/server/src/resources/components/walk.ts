import type { Wire } from './fields.js';

/** Calls `visit` on every component of a stored message or modal, parents before children. */
export function walkComponents(components: readonly unknown[], visit: (component: Wire) => void) {
  for (const item of components) {
    if (typeof item !== 'object' || item === null) continue;
    const component = item as Wire;
    visit(component);
    const children = component['components'];
    if (Array.isArray(children)) walkComponents(children, visit);
    for (const key of ['accessory', 'component']) {
      const child = component[key];
      if (typeof child === 'object' && child !== null) walkComponents([child], visit);
    }
  }
}
