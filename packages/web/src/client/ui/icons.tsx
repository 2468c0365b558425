/** Small icons drawn with SVG (no icon font; emoji fonts are not everywhere), hidden from AT. */
export function SpeakerIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z"
      />
    </svg>
  );
}

/** A crossed-out microphone: muted. */
export function MicOffIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M19 11a7 7 0 0 1-1.2 3.9l-1.5-1.5c.4-.7.7-1.5.7-2.4h2zM15 11.2 9 5.2V5a3 3 0 0 1 6 0v6.2zM4.3 3 3 4.3l6 6V11a3 3 0 0 0 4.4 2.7l1.6 1.6A5 5 0 0 1 7 11H5a7 7 0 0 0 6 6.9V21h2v-3.1a6.9 6.9 0 0 0 3.4-1.4l3.3 3.3L21 18.5z"
      />
    </svg>
  );
}

/** Crossed-out headphones: deafened. */
export function HeadphonesOffIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M4.3 3 3 4.3l2.3 2.3A9 9 0 0 0 3 12.5V19a2 2 0 0 0 2 2h3v-7H5v-1.5c0-1.6.5-3.1 1.4-4.3L18 19.8V21h1.2l.5.5L21 20.2zM12 5.5a7 7 0 0 1 7 7V14h-2.2l2.2 2.2V12.5A9 9 0 0 0 8 4.4l1.5 1.5A7 7 0 0 1 12 5.5z"
      />
    </svg>
  );
}

/** A video camera: camera on. */
export function CameraIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M4 6h11a2 2 0 0 1 2 2v2.5l4-3v9l-4-3V16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z"
      />
    </svg>
  );
}
