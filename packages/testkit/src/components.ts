/**
 * Finding what a person clicks in a message's components, and the MODAL_SUBMIT `data` made from a
 * person's answers, in the layout the web client sends (docs/components.md#modals): the modal's
 * top-level Labels, Text Displays and legacy Action Rows, each interactive component answered by
 * `custom_id`.
 *
 * @module
 */
import type { FileInput } from './rest.js';

/** A component as messages and modals carry it (only the fields the kit reads are typed). */
export interface Component {
  type: number;
  id?: number;
  custom_id?: string;
  disabled?: boolean;
  label?: string;
  components?: Component[];
  component?: Component;
  accessory?: Component;
}

/** What INTERACTION_MODAL_CREATE carries: the modal an app showed the person. */
export interface Modal {
  /** The interaction the modal answers. */
  id: string;
  channel_id: string;
  custom_id: string;
  application: { id: string; name: string };
  title: string;
  components: Component[];
  nonce?: string | null;
}

/** A person's answer to one modal field: text, chosen values, a checkbox, files. */
export type ModalAnswer = string | readonly string[] | boolean | readonly FileInput[] | null;

const ComponentType = {
  ACTION_ROW: 1,
  TEXT_INPUT: 4,
  FILE_UPLOAD: 19,
  RADIO_GROUP: 21,
  CHECKBOX: 23,
  TEXT_DISPLAY: 10,
  LABEL: 18,
} as const;

/** The component with this custom_id anywhere in `components` (rows, sections, containers). */
export function findComponent(
  components: readonly Component[] | undefined,
  customId: string,
): Component | null {
  for (const component of components ?? []) {
    if (component.custom_id === customId) return component;
    const inside =
      findComponent(component.components, customId) ??
      findComponent(component.accessory === undefined ? [] : [component.accessory], customId) ??
      findComponent(component.component === undefined ? [] : [component.component], customId);
    if (inside !== null) return inside;
  }
  return null;
}

/** Every custom_id in `components`, for an error that says what is there. */
export function customIds(components: readonly Component[] | undefined): string[] {
  const out: string[] = [];
  for (const component of components ?? []) {
    if (component.custom_id !== undefined) out.push(component.custom_id);
    out.push(...customIds(component.components));
    if (component.accessory !== undefined) out.push(...customIds([component.accessory]));
    if (component.component !== undefined) out.push(...customIds([component.component]));
  }
  return out;
}

interface Uploads {
  files: FileInput[];
  refs: { id: string; filename: string }[];
}

function answerOf(field: Component, answer: ModalAnswer, uploads: Uploads) {
  const base = { type: field.type, custom_id: field.custom_id };
  switch (field.type) {
    case ComponentType.TEXT_INPUT:
      return { ...base, value: typeof answer === 'string' ? answer : '' };
    case ComponentType.RADIO_GROUP:
      return { ...base, value: typeof answer === 'string' ? answer : null };
    case ComponentType.CHECKBOX:
      return { ...base, value: answer === true };
    case ComponentType.FILE_UPLOAD: {
      const values: string[] = [];
      for (const file of Array.isArray(answer) ? (answer as readonly FileInput[]) : []) {
        const id = String(uploads.files.length);
        uploads.files.push(file);
        uploads.refs.push({ id, filename: file.name });
        values.push(id);
      }
      return { ...base, values };
    }
    default:
      // Selects and checkbox groups: the chosen values.
      return {
        ...base,
        values: Array.isArray(answer) ? answer.filter((v) => typeof v === 'string') : [],
      };
  }
}

/**
 * The `data` of the MODAL_SUBMIT answering `modal` with `answers` (by custom_id; a field left
 * out is sent empty, and the platform refuses a required one), and the files it uploads.
 */
export function buildModalSubmit(
  modal: Pick<Modal, 'custom_id' | 'components'>,
  answers: Readonly<Record<string, ModalAnswer>>,
): { data: Record<string, unknown>; files: FileInput[] } {
  const uploads: Uploads = { files: [], refs: [] };
  const answer = (field: Component) =>
    answerOf(field, answers[field.custom_id ?? ''] ?? null, uploads);
  const components = modal.components.map((component) => {
    switch (component.type) {
      case ComponentType.LABEL:
        return {
          type: component.type,
          component: component.component === undefined ? null : answer(component.component),
        };
      case ComponentType.ACTION_ROW:
        return { type: component.type, components: (component.components ?? []).map(answer) };
      default:
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
