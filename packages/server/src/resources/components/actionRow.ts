import { componentType, startComponent, type BuildContext } from './context.js';
import { fail, Fields, type Wire } from './fields.js';
import { buttonWire, selectWire } from './interactive.js';
import { ComponentTypes as T, LIMITS } from './limits.js';

const ROW_CHILD_TYPES = [
  T.BUTTON,
  T.STRING_SELECT,
  T.USER_SELECT,
  T.ROLE_SELECT,
  T.MENTIONABLE_SELECT,
  T.CHANNEL_SELECT,
];

/** A message's action row: up to 5 buttons, or exactly one select menu. */
export function actionRowWire(context: BuildContext, fields: Fields): Wire {
  const wire = startComponent(context, fields, T.ACTION_ROW);
  const children = fields.array('components', { min: 1, max: LIMITS.rowButtons });
  let selects = 0;
  wire['components'] = children.map((item, index) => {
    const child = new Fields(item, fields.at('components').concat(index));
    const type = componentType(child, ROW_CHILD_TYPES);
    if (type !== T.BUTTON) selects += 1;
    if (selects > 0 && index > 0) {
      fail(
        child.path,
        'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
        'The specified component exceeds the maximum width',
      );
    }
    return type === T.BUTTON ? buttonWire(context, child) : selectWire(context, child, type);
  });
  return wire;
}
