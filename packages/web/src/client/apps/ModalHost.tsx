/**
 * Shows the modals apps open (INTERACTION_MODAL_CREATE); mounted once in the shell. H4 owns this
 * file and replaces this first version, which shows none.
 */
export const ModalHost: () => React.JSX.Element | null = () => null;
