/**
 * @module resources/components: message components (v1 and v2) and modals, validated without
 * storage: what a message or a MODAL callback may carry, and what a person's click or modal
 * submission may answer.
 */
export { componentsInput, type ComponentsInput } from './schemas.js';
export { validateMessageComponents, type MessageComponentsOptions } from './messageComponents.js';
export type { ComponentSender } from './context.js';
export { validateModal, type ModalRecord } from './modal.js';
export { readModalSubmit } from './submit.js';
export { readComponentClick, type ComponentClick } from './click.js';
export { mapComponentMedia, resolveComponentMedia, type MediaAttachment } from './media.js';
export { componentsText } from './walk.js';
export { ButtonStyles, ComponentTypes, type ComponentType } from './limits.js';
