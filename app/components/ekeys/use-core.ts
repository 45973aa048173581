import { useEffect, useState } from "react";
import wasmUrl from "~core/core.wasm?url";
import { loadCore, type Core } from "~core";

/**
 * The access-window core in the browser: the e-key panel validates and previews every edit
 * locally (no round trip per keystroke) with the same module the Worker uses. Loaded once, lazily.
 */
let shared: Promise<Core> | null = null;

export function useCore(): Core | null {
  const [core, setCore] = useState<Core | null>(null);
  useEffect(() => {
    let live = true;
    shared ??= loadCore(fetch(wasmUrl));
    shared.then((c) => live && setCore(c)).catch(() => (shared = null));
    return () => {
      live = false;
    };
  }, []);
  return core;
}

/** The viewer's IANA zone (the admin's own zone in the preview). */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
