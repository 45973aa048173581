/** A full-page POST (the spec reloads the page on language switch; logout drops all client state). */
export function postAndReload(action: string, fields: Record<string, string> = {}): void {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
