import { asArray, fail, Fields, type Path, type Wire } from './fields.js';
import { ComponentTypes as T, LIMITS } from './limits.js';
import type { ModalRecord } from './modal.js';
import { checkboxValue, pickedValues, radioValue, textValue } from './values.js';
import { walkComponents } from './walk.js';

/** The submitted answers by custom_id, with where each was in the request. */
type Answers = Map<string, Fields>;

/** What answering a modal's components shares: the answers, and the files they may use. */
interface SubmitPass {
  answers: Answers;
  /** The ids of the files uploaded with the submission. */
  allowed: ReadonlySet<string>;
  /** The file ids the file uploads' answers name, in order. */
  uploaded: string[];
}

/** Collects every object with a `custom_id` of a submission (in Labels and Action Rows alike). */
function collectAnswers(value: unknown, path: Path, answers: Answers): void {
  const fields = new Fields(value, path);
  const customId = fields.raw['custom_id'];
  if (typeof customId === 'string') {
    if (answers.has(customId)) {
      fail(
        fields.at('custom_id'),
        'COMPONENT_CUSTOM_ID_DUPLICATED',
        'Component custom id cannot be duplicated.',
      );
    }
    answers.set(customId, fields);
  }
  const children = fields.raw['components'];
  if (Array.isArray(children)) {
    children.forEach((child: unknown, index) => {
      collectAnswers(child, fields.at('components').concat(index), answers);
    });
  }
  if (fields.has('component'))
    collectAnswers(fields.raw['component'], fields.at('component'), answers);
}

/** One interactive component's answer as the app receives it (type, id, custom_id, value/s). */
function answerWire(component: Wire, pass: SubmitPass): Wire {
  const customId = String(component['custom_id']);
  const type = Number(component['type']);
  const found = pass.answers.get(customId);
  pass.answers.delete(customId);
  // A missing answer reads as empty: refused below when the component is required.
  const answer = found ?? new Fields({}, ['data', 'components']);
  const at = (key: string) => (found === undefined ? answer.path : answer.at(key));
  const sentType = answer.raw['type'];
  if (sentType !== undefined && sentType !== type) {
    fail(
      answer.at('type'),
      'COMPONENT_TYPE_MISMATCH',
      `Component ${customId} is of type ${String(type)}.`,
    );
  }
  const base = { type, id: component['id'], custom_id: customId };
  switch (type) {
    case T.TEXT_INPUT:
      return { ...base, value: textValue(component, answer.raw['value'], at('value')) };
    case T.RADIO_GROUP:
      return { ...base, value: radioValue(component, answer.raw['value'], at('value')) };
    case T.CHECKBOX:
      return { ...base, value: checkboxValue(answer.raw['value'], at('value')) };
    case T.FILE_UPLOAD: {
      const values = pickedValues(component, answer.raw['values'] ?? [], {
        path: at('values'),
        allowedIds: pass.allowed,
      });
      pass.uploaded.push(...values);
      return { ...base, values };
    }
    default:
      return {
        ...base,
        values: pickedValues(component, answer.raw['values'] ?? [], { path: at('values') }),
      };
  }
}

/**
 * Checks a person's modal submission (the `data` of a type-5 interaction) against the modal
 * the app showed: its custom_id, an answer for every required component, lengths, choices
 * within the options, checkbox booleans, file uploads naming only `files.attachmentIds` (the
 * files uploaded with the submission). Returns the `data.components` the app receives (the
 * modal's layout: Labels, Text Displays, Action Rows, with ids) and the attachment ids the
 * answers use (for `resolved.attachments`). Throws 50035 (prefix `data`).
 */
export function readModalSubmit(
  modal: ModalRecord,
  submitted: unknown,
  files: { attachmentIds: readonly string[] },
): { components: unknown[]; attachmentIds: string[] } {
  const data = new Fields(submitted, ['data']);
  const customId = data.requiredString('custom_id', LIMITS.customId);
  if (customId !== modal.custom_id) {
    fail(data.at('custom_id'), 'MODAL_CUSTOM_ID_MISMATCH', 'This is not the modal that was shown.');
  }
  const pass: SubmitPass = {
    answers: new Map(),
    allowed: new Set(files.attachmentIds),
    uploaded: [],
  };
  const sent = asArray(data.raw['components'] ?? [], data.at('components'), {
    min: 0,
    max: LIMITS.modalComponents,
  });
  sent.forEach((item, index) => {
    collectAnswers(item, data.at('components').concat(index), pass.answers);
  });
  const known = new Set<unknown>();
  walkComponents(modal.components, (component) => known.add(component['custom_id']));
  for (const [customId, answer] of pass.answers) {
    if (!known.has(customId)) {
      fail(
        answer.at('custom_id'),
        'COMPONENT_NOT_FOUND',
        'The modal has no component with this custom_id.',
      );
    }
  }
  const components = modal.components.map((component): Wire => {
    const type = Number(component['type']);
    const id = component['id'];
    if (type === T.LABEL) {
      return { type, id, component: answerWire(component['component'] as Wire, pass) };
    }
    if (type === T.ACTION_ROW) {
      const children = component['components'] as Wire[];
      return { type, id, components: children.map((child) => answerWire(child, pass)) };
    }
    return { type, id };
  });
  return { components, attachmentIds: pass.uploaded };
}
