/**
 * A modal's answers and the MODAL_SUBMIT `data` made from them, shaped as
 * docs/components.md#modals reads a submission: the modal's top-level layout (Labels, Text
 * Displays, legacy Action Rows) with each interactive component answered by `custom_id` — a
 * Text Input's `value`, a select's `values`, a File Upload's `values` (upload references `n`
 * of `files[n]`, listed in `data.attachments`), a Radio Group's `value` (string or null), a
 * Checkbox Group's `values`, a Checkbox's boolean `value`.
 */
import {
  ComponentType,
  type APIComponentInLabel,
  type APIModalInteractionResponseCallbackComponent,
  type APITextInputComponent,
} from 'discord-api-types/v10';

/** What INTERACTION_MODAL_CREATE carries (docs/interactions.md#guildhall-dispatches). */
export interface ModalCreate {
  id: string;
  channel_id: string;
  custom_id: string;
  application: { id: string; name: string; icon: string | null; description: string };
  title: string;
  components: APIModalInteractionResponseCallbackComponent[];
  nonce?: string | null;
}

/** The person's answer to one interactive component. */
export type ModalAnswer = string | string[] | boolean | File[] | null;

export type ModalField = APIComponentInLabel;

/** Every interactive component of a modal, with the label it is shown under. */
export function modalFields(
  components: readonly APIModalInteractionResponseCallbackComponent[],
): { field: ModalField; label: string; description?: string | undefined }[] {
  const out: { field: ModalField; label: string; description?: string | undefined }[] = [];
  for (const component of components) {
    if (component.type === ComponentType.Label) {
      out.push({
        field: component.component,
        label: component.label,
        description: component.description,
      });
    } else if (component.type === ComponentType.ActionRow) {
      for (const input of component.components)
        out.push({ field: input, label: input.label ?? '' });
    }
  }
  return out;
}

/** The answers a modal opens with: its values and defaults. */
export function initialAnswers(
  components: readonly APIModalInteractionResponseCallbackComponent[],
): Record<string, ModalAnswer> {
  const answers: Record<string, ModalAnswer> = {};
  for (const { field } of modalFields(components)) {
    switch (field.type) {
      case ComponentType.TextInput:
        answers[field.custom_id] = field.value ?? '';
        break;
      case ComponentType.StringSelect:
        answers[field.custom_id] = field.options
          .filter((o) => o.default === true)
          .map((o) => o.value);
        break;
      case ComponentType.UserSelect:
      case ComponentType.RoleSelect:
      case ComponentType.MentionableSelect:
      case ComponentType.ChannelSelect:
        answers[field.custom_id] = (field.default_values ?? []).map((d) => d.id);
        break;
      case ComponentType.FileUpload:
        answers[field.custom_id] = [];
        break;
      case ComponentType.RadioGroup:
        answers[field.custom_id] = field.options.find((o) => o.default === true)?.value ?? null;
        break;
      case ComponentType.CheckboxGroup:
        answers[field.custom_id] = field.options
          .filter((o) => o.default === true)
          .map((o) => o.value);
        break;
      case ComponentType.Checkbox:
        answers[field.custom_id] = field.default === true;
        break;
    }
  }
  return answers;
}

/** Modal components are required unless they say otherwise. */
const isRequired = (field: ModalField) => !('required' in field) || field.required !== false;

const count = (answer: ModalAnswer) => (Array.isArray(answer) ? answer.length : 0);

/** The message for each answer the API would refuse, by custom_id. */
export function validateModal(
  components: readonly APIModalInteractionResponseCallbackComponent[],
  answers: Readonly<Record<string, ModalAnswer>>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { field } of modalFields(components)) {
    const answer = answers[field.custom_id] ?? null;
    const required = isRequired(field);
    if (field.type === ComponentType.Checkbox) continue;
    if (field.type === ComponentType.TextInput) {
      const text = typeof answer === 'string' ? answer : '';
      const length = text.length;
      if (length === 0) {
        if (required) errors[field.custom_id] = 'This field is required.';
      } else if (typeof field.min_length === 'number' && length < field.min_length) {
        errors[field.custom_id] = `At least ${field.min_length} characters.`;
      } else if (typeof field.max_length === 'number' && length > field.max_length) {
        errors[field.custom_id] = `At most ${field.max_length} characters.`;
      }
      continue;
    }
    if (field.type === ComponentType.RadioGroup) {
      if (required && answer === null) errors[field.custom_id] = 'Choose one.';
      continue;
    }
    const n = count(answer);
    const min = field.min_values ?? (required ? 1 : 0);
    const max =
      field.max_values ?? (field.type === ComponentType.CheckboxGroup ? field.options.length : 1);
    if (n === 0 && !required) continue;
    if (n < Math.max(min, required ? 1 : 0))
      errors[field.custom_id] = min <= 1 ? 'Choose at least one.' : `Choose at least ${min}.`;
    else if (n > max) errors[field.custom_id] = `Choose at most ${max}.`;
  }
  return errors;
}

/** Where a submission's files go: the files sent and their `data.attachments` entries. */
interface Uploads {
  files: File[];
  refs: { id: string; filename: string }[];
}

const strings = (answer: ModalAnswer) =>
  Array.isArray(answer) ? answer.filter((v): v is string => typeof v === 'string') : [];

function answerOf(field: ModalField, answer: ModalAnswer, uploads: Uploads) {
  const base = { type: field.type, custom_id: field.custom_id };
  switch (field.type) {
    case ComponentType.TextInput:
      return { ...base, value: typeof answer === 'string' ? answer : '' };
    case ComponentType.RadioGroup:
      return { ...base, value: typeof answer === 'string' ? answer : null };
    case ComponentType.Checkbox:
      return { ...base, value: answer === true };
    case ComponentType.FileUpload: {
      const values: string[] = [];
      for (const file of Array.isArray(answer) ? answer : []) {
        if (!(file instanceof File)) continue;
        const id = String(uploads.files.length);
        uploads.files.push(file);
        uploads.refs.push({ id, filename: file.name });
        values.push(id);
      }
      return { ...base, values };
    }
    case ComponentType.StringSelect:
    case ComponentType.UserSelect:
    case ComponentType.RoleSelect:
    case ComponentType.MentionableSelect:
    case ComponentType.ChannelSelect:
    case ComponentType.CheckboxGroup:
      return { ...base, values: strings(answer) };
  }
}

/** The `data` of the MODAL_SUBMIT and the files to send with it (multipart `files[n]`). */
export function buildModalSubmit(
  modal: Pick<ModalCreate, 'custom_id' | 'components'>,
  answers: Readonly<Record<string, ModalAnswer>>,
): { data: Record<string, unknown>; files: File[] } {
  const uploads: Uploads = { files: [], refs: [] };
  const answer = (field: ModalField) => answerOf(field, answers[field.custom_id] ?? null, uploads);
  const components = modal.components.map((component) => {
    switch (component.type) {
      case ComponentType.Label:
        return { type: component.type, component: answer(component.component) };
      case ComponentType.ActionRow:
        return {
          type: component.type,
          components: component.components.map((input: APITextInputComponent) => answer(input)),
        };
      case ComponentType.TextDisplay:
        return {
          type: component.type,
          ...(component.id === undefined ? {} : { id: component.id }),
        };
    }
  });
  return {
    data: {
      custom_id: modal.custom_id,
      components,
      ...(uploads.refs.length === 0 ? {} : { attachments: uploads.refs }),
    },
    files: uploads.files,
  };
}
