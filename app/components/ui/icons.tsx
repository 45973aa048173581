import type { ReactNode, SVGProps } from "react";

/*
 * The few line icons the UI kit needs (24px grid, stroke = currentColor), kept inline so no
 * icon package is required. Decorative by default; pass `aria-label` and `aria-hidden={false}`
 * when an icon is the only content of a control.
 */

export type IconProps = SVGProps<SVGSVGElement>;

export function Icon({ children, ...props }: IconProps) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

/** An icon component that draws `shape` (paths on the 24px grid) on `Icon`. */
export function icon(shape: ReactNode) {
  return function DrawnIcon(props: IconProps) {
    return <Icon {...props}>{shape}</Icon>;
  };
}

export const XIcon = icon(<path d="M18 6 6 18M6 6l12 12" />);

export const CheckIcon = icon(<path d="M20 6 9 17l-5-5" />);

export const MinusIcon = icon(<path d="M5 12h14" />);

export const ChevronDownIcon = icon(<path d="m6 9 6 6 6-6" />);

export const ChevronUpIcon = icon(<path d="m18 15-6-6-6 6" />);

export const ChevronLeftIcon = icon(<path d="m15 18-6-6 6-6" />);

export const ChevronRightIcon = icon(<path d="m9 18 6-6-6-6" />);

export const ChevronsLeftIcon = icon(<path d="m11 17-5-5 5-5M18 17l-5-5 5-5" />);

export const ChevronsRightIcon = icon(<path d="m6 17 5-5-5-5M13 17l5-5-5-5" />);

export const ChevronsUpDownIcon = icon(<path d="m7 15 5 5 5-5M7 9l5-5 5 5" />);

export const InfoIcon = icon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 16v-4M12 8h.01" />
  </>,
);

export const AlertTriangleIcon = icon(
  <>
    <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" />
    <path d="M12 9v4M12 17h.01" />
  </>,
);

export const AlertCircleIcon = icon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 8v4M12 16h.01" />
  </>,
);

export const CheckCircleIcon = icon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="m9 12 2 2 4-4" />
  </>,
);

export const InboxIcon = icon(
  <>
    <path d="M22 12h-6l-2 3h-4l-2-3H2" />
    <path d="M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z" />
  </>,
);
