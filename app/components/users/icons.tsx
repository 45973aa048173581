import { icon } from "~/components/ui/icons";

/** Icons the users pages need beyond the UI kit's set, drawn on its `Icon`. */
export const UserIcon = icon(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </>,
);

export const TrashIcon = icon(<path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />);

export const EraserIcon = icon(<path d="M7 21h13M5.6 15.4l8.5-8.5a2 2 0 0 1 2.8 0l2.2 2.2a2 2 0 0 1 0 2.8L12 19H8.2a2 2 0 0 1-1.4-.6l-1.2-1.2a2 2 0 0 1 0-2.8ZM10 11l5 5" />);
