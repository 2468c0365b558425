import { useEffect, useRef, type RefObject } from 'react';

/**
 * Moves focus to a form's first invalid field (`aria-invalid="true"`, in document order) once the
 * errors a refused send found have rendered. Call the returned function when a send is refused;
 * fields marked invalid while the person types keep their focus where it is.
 */
export function useFocusInvalid(
  container: RefObject<HTMLElement | null>,
  errors: Readonly<Record<string, string>>,
): () => void {
  const requested = useRef(false);
  useEffect(() => {
    if (!requested.current) return;
    requested.current = false;
    container.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [container, errors]);
  return () => {
    requested.current = true;
  };
}
