import { useEffect, useRef, useState } from "react";

/**
 * A table's scroll box joins the tab order while its content is wider than it (a phone, a long
 * Spanish header), so a keyboard can scroll it; otherwise it stays out of the way. axe's rule
 * `scrollable-region-focusable` asks for this when nothing inside the box takes focus.
 */
export function useKeyboardScroll<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const check = () => setScrolls(box.scrollWidth > box.clientWidth);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { ref, tabIndex: scrolls ? 0 : undefined };
}
