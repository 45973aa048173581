// The spec also reaches the add-user form at /adduser.
export { action, default, loader, meta } from "./_app.addUser";
