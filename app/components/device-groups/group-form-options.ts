/**
 * How the group form's post is parsed, in the browser and in the action alike: the schema is the
 * admin API's and reads the posted strings itself (absent times, an empty zone, repeated device ids).
 */
export const GROUP_FORM_OPTIONS = { disableAutoCoercion: true } as const;
