import { ComponentTypes } from './limits.js';
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

/**
 * The text of a components v2 message's Text Displays, one per line: what its mentions are
 * parsed from (an IS_COMPONENTS_V2 message has no content).
 */
export function componentsText(components: readonly unknown[]): string {
  const texts: string[] = [];
  walkComponents(components, (component) => {
    if (
      component['type'] === ComponentTypes.TEXT_DISPLAY &&
      typeof component['content'] === 'string'
    ) {
      texts.push(component['content']);
    }
  });
  return texts.join('\n');
}
