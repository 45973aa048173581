import { useSyncExternalStore } from "react";
import type { ToastMessage } from "~/utils/toast-cookie";

/*
 * Client-side state of the single visible toast. Showing a new toast replaces the current one
 * (spec: one toast at a time). Call `toast()` from event handlers or effects only: on the
 * server there is no toast state, and the server snapshot is always empty.
 */

export interface ActiveToast extends ToastMessage {
  /** Changes with every `toast()` call, so an identical message shown twice restarts its timer. */
  id: number;
}

let current: ActiveToast | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a toast, replacing any visible one. */
export function toast(message: ToastMessage): void {
  current = { ...message, id: nextId++ };
  emit();
}

/** Hides the visible toast, if any. */
export function dismissToast(): void {
  if (current === null) return;
  current = null;
  emit();
}

/** The visible toast plus the functions to change it, for components that need to react to it. */
export function useToast() {
  const active = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  return { active, toast, dismiss: dismissToast };
}
