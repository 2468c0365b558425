/** Component types, button styles and the platform's component limits (api-facts §14). */

/** Component types (the component object's `type`). */
export const ComponentTypes = {
  ACTION_ROW: 1,
  BUTTON: 2,
  STRING_SELECT: 3,
  TEXT_INPUT: 4,
  USER_SELECT: 5,
  ROLE_SELECT: 6,
  MENTIONABLE_SELECT: 7,
  CHANNEL_SELECT: 8,
  SECTION: 9,
  TEXT_DISPLAY: 10,
  THUMBNAIL: 11,
  MEDIA_GALLERY: 12,
  FILE: 13,
  SEPARATOR: 14,
  CONTAINER: 17,
  LABEL: 18,
  FILE_UPLOAD: 19,
  RADIO_GROUP: 21,
  CHECKBOX_GROUP: 22,
  CHECKBOX: 23,
} as const;

/** A component type: a value of {@link ComponentTypes}. */
export type ComponentType = (typeof ComponentTypes)[keyof typeof ComponentTypes];

/** Button styles; LINK and PREMIUM send no interaction. */
export const ButtonStyles = {
  PRIMARY: 1,
  SECONDARY: 2,
  SUCCESS: 3,
  DANGER: 4,
  LINK: 5,
  PREMIUM: 6,
} as const;

/** The select menus, by type. Types 5–8 are auto-populated (users, roles, channels). */
export const SELECT_TYPES: ReadonlySet<number> = new Set([3, 5, 6, 7, 8]);

/** Text input styles: 1 SHORT, 2 PARAGRAPH. */
export const TEXT_INPUT_STYLES = [1, 2] as const;

/** Separator spacing: 1 SMALL, 2 LARGE. */
export const SEPARATOR_SPACINGS = [1, 2] as const;

/** The largest component `id` (a positive 32-bit integer). */
export const MAX_COMPONENT_ID = 2 ** 31 - 1;

/** The limits a component is checked against. */
export const LIMITS = {
  customId: 100,
  /** Top-level action rows of a message without IS_COMPONENTS_V2. */
  legacyRows: 5,
  /** Components of an IS_COMPONENTS_V2 message, nested ones included. */
  v2Total: 40,
  rowButtons: 5,
  buttonLabel: 80,
  buttonUrl: 512,
  emojiName: 32,
  selectOptions: 25,
  selectValues: 25,
  optionText: 100,
  placeholder: 150,
  textDisplay: 4000,
  sectionTexts: 3,
  galleryItems: 10,
  mediaDescription: 1024,
  mediaUrl: 2048,
  modalTitle: 45,
  modalComponents: 5,
  labelText: 45,
  labelDescription: 100,
  textInputLength: 4000,
  textInputPlaceholder: 100,
  fileUploadValues: 10,
  fileTypes: 10,
  radioOptionsMin: 2,
  groupOptions: 10,
} as const;

/** Modal File Upload type filters: a group name or a dot-prefixed extension. */
export const FILE_TYPE_GROUPS: ReadonlySet<string> = new Set(['image', 'video', 'audio']);
