/** A new company's first hour, in order (decision 0056): the home's checklist, ticked by the server from the company's data. */
export const CHECKLIST_STEPS = ["zone", "door", "people", "app", "test"] as const;
export type ChecklistStep = (typeof CHECKLIST_STEPS)[number];
export type Checklist = Record<ChecklistStep, boolean>;
