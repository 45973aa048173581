import { z } from "zod";
import { nameText } from "./text";

/**
 * Directory provisioning (SCIM, decision 0080): the console's forms for tokens and group links.
 * The SCIM wire format itself is read in `app/services/scim/`, not here.
 */
export const DIRECTORY_MSG = {
  tokenCreated: "Directory token created",
  tokenRotated: "Directory token rotated",
  tokenRevoked: "Directory token revoked",
  tokenNotFound: "The provided directory token is invalid",
  tokenRevokedAlready: "This directory token is already revoked",
  groupLinked: "Directory group linked",
  groupNotFound: "The provided directory group is invalid",
  roleNotFound: "The provided role is invalid",
  deviceGroupNotFound: "The provided device group is invalid",
} as const;

export const TOKEN_NAME_MAX = 64;

export const scimTokenFormSchema = z.object({ name: nameText("Token name", TOKEN_NAME_MAX) });
export type ScimTokenInput = z.output<typeof scimTokenFormSchema>;

export const scimTokenRowSchema = z.object({ id: z.coerce.number().int().positive() });

const ids = z.preprocess((v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : String(v).split(",")), z.array(z.coerce.number().int().positive()).max(100));

/** What joining a directory group grants: a role (optional) and keys to device groups. */
export const scimGroupLinkSchema = z.object({
  groupId: z.coerce.number().int().positive(),
  roleId: z.preprocess((v) => (v === "" || v === undefined ? null : v), z.coerce.number().int().positive().nullable()),
  deviceGroupIds: ids,
});
export type ScimGroupLinkInput = z.output<typeof scimGroupLinkSchema>;
