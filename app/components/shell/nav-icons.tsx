import type { ReactNode, SVGProps } from "react";

type P = SVGProps<SVGSVGElement>;
const Svg = ({ children, ...props }: P) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
    {children}
  </svg>
);
const navIcon = (shape: ReactNode) =>
  function NavIcon(p: P) {
    return <Svg {...p}>{shape}</Svg>;
  };

/** One icon per header/home destination, keyed like `navItems()`. */
export const NAV_ICONS: Record<string, (p: P) => JSX.Element> = {
  home: navIcon(
    <>
      <path d="M3 11l9-8 9 8" />
      <path d="M5 10v10h14V10" />
    </>,
  ),
  users: navIcon(
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20a6.5 6.5 0 0113 0" />
      <path d="M16 4.5a3.5 3.5 0 010 7M18 14a6 6 0 013.5 6" />
    </>,
  ),
  devices: navIcon(
    <>
      <rect x="6" y="2.5" width="12" height="19" rx="2" />
      <circle cx="12" cy="14" r="2.5" />
      <path d="M10 6h4" />
    </>,
  ),
  deviceGroups: navIcon(
    <>
      <rect x="3" y="3" width="7" height="7" rx="1" />
      <rect x="14" y="3" width="7" height="7" rx="1" />
      <rect x="3" y="14" width="7" height="7" rx="1" />
      <rect x="14" y="14" width="7" height="7" rx="1" />
    </>,
  ),
  activity: navIcon(<path d="M3 12h4l3-8 4 16 3-8h4" />),
  // A ticket: a guest's pass.
  visitorPasses: navIcon(
    <>
      <path d="M3 7a2 2 0 012-2h14a2 2 0 012 2v2a3 3 0 000 6v2a2 2 0 01-2 2H5a2 2 0 01-2-2v-2a3 3 0 000-6z" />
      <path d="M14 5v14" strokeDasharray="2 2" />
    </>,
  ),
  alerts: navIcon(
    <>
      <path d="M6 16V11a6 6 0 0112 0v5l2 2H4z" />
      <path d="M10 20a2 2 0 004 0" />
    </>,
  ),
  support: navIcon(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9a2.5 2.5 0 115 .5c0 1.5-2.5 2-2.5 3.5" />
      <path d="M12 17h.01" />
    </>,
  ),
  adminSupport: navIcon(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9a2.5 2.5 0 115 .5c0 1.5-2.5 2-2.5 3.5" />
      <path d="M12 17h.01" />
    </>,
  ),
  companySettings: navIcon(
    <>
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 00.3 1.8l.1.1a2 2 0 11-2.8 2.8l-.1-.1a1.7 1.7 0 00-1.8-.3 1.7 1.7 0 00-1 1.5V21a2 2 0 11-4 0v-.1a1.7 1.7 0 00-1.1-1.5 1.7 1.7 0 00-1.8.3l-.1.1a2 2 0 11-2.8-2.8l.1-.1a1.7 1.7 0 00.3-1.8 1.7 1.7 0 00-1.5-1H3a2 2 0 110-4h.1a1.7 1.7 0 001.5-1.1 1.7 1.7 0 00-.3-1.8l-.1-.1a2 2 0 112.8-2.8l.1.1a1.7 1.7 0 001.8.3H9a1.7 1.7 0 001-1.5V3a2 2 0 114 0v.1a1.7 1.7 0 001 1.5 1.7 1.7 0 001.8-.3l.1-.1a2 2 0 112.8 2.8l-.1.1a1.7 1.7 0 00-.3 1.8V9a1.7 1.7 0 001.5 1H21a2 2 0 110 4h-.1a1.7 1.7 0 00-1.5 1z" />
    </>,
  ),
  company: navIcon(
    <>
      <path d="M3 21V7l7-4v18M10 9h11v12H3" />
      <path d="M14 13h3M14 17h3" />
    </>,
  ),
  ota: navIcon(
    <>
      <path d="M12 3v12M7 10l5 5 5-5" />
      <path d="M4 19h16" />
    </>,
  ),
  deviceType: navIcon(
    <>
      <rect x="3" y="6" width="18" height="12" rx="2" />
      <path d="M7 10h.01M11 10h6M7 14h10" />
    </>,
  ),
  cells: navIcon(
    <>
      <circle cx="6" cy="6" r="3" />
      <circle cx="18" cy="6" r="3" />
      <circle cx="12" cy="18" r="3" />
      <path d="M8.5 7.5l2 8M15.5 7.5l-2 8M9 6h6" />
    </>,
  ),
  audit: navIcon(
    <>
      <path d="M12 3l7 3v5c0 4.5-3 8-7 10-4-2-7-5.5-7-10V6z" />
      <path d="M9 12l2 2 4-4" />
    </>,
  ),
  registerDevices: navIcon(
    <>
      <rect x="3" y="7" width="14" height="12" rx="2" />
      <path d="M7 11h6M7 15h4M20 3v6M17 6h6" />
    </>,
  ),
  varPanel: navIcon(
    <>
      <path d="M3 21V9l6-4 6 4v12" />
      <path d="M15 13h6v8H3" />
      <path d="M7 13h4M7 17h4" />
    </>,
  ),
  fleet: navIcon(
    <>
      <path d="M3 12h4l3-7 4 14 3-7h4" />
    </>,
  ),
  deviceStock: navIcon(
    <>
      <path d="M3 8l9-5 9 5v8l-9 5-9-5z" />
      <path d="M3 8l9 5 9-5M12 13v8" />
    </>,
  ),
  billingPortal: navIcon(
    <>
      <path d="M6 2.5h12v19l-3-2-3 2-3-2-3 2z" />
      <path d="M9 8h6M9 12h6M9 16h3" />
    </>,
  ),
  role: navIcon(
    <>
      <path d="M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6z" />
      <path d="M9 12l2 2 4-4" />
    </>,
  ),
};
