/**
 * What the service supports (RFC 7643 §5–7): ServiceProviderConfig, ResourceTypes and Schemas. User has the
 * custom fields extension of the token's company, listed even when the company has no field (then with no
 * attributes), so a directory configured before the fields exist already knows its URN.
 */
import type { CustomField } from "~/services/custom-fields.server";
import { MAX_RESULTS } from "./call.server";
import { CUSTOM_FIELDS_SCHEMA, extensionAttributes } from "./custom-fields.server";
import { GROUP_SCHEMA } from "./groups.server";
import { USER_SCHEMA } from "./users.server";

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

export function serviceProviderConfig(base: string) {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    documentationUri: `${base}/ServiceProviderConfig`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [{ type: "oauthbearertoken", name: "Bearer token", description: "A directory token an admin creates in the console", primary: true }],
    meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string, fields: CustomField[]) {
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "User",
      name: "User",
      endpoint: "/Users",
      schema: USER_SCHEMA,
      // Required when a field is: a user cannot be created without it (decision 0095's rule).
      schemaExtensions: [{ schema: CUSTOM_FIELDS_SCHEMA, required: fields.some((f) => f.required) }],
      meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      schema: GROUP_SCHEMA,
      meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/Group` },
    },
  ];
}

export function schemas(base: string, fields: CustomField[]) {
  const multi = (name: string) => attr(name, "complex", { multiValued: true, subAttributes: [attr("value", "string"), attr("type", "string"), attr("primary", "boolean")] });
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      id: USER_SCHEMA,
      name: "User",
      attributes: [
        attr("userName", "string", { required: true, uniqueness: "server" }),
        attr("name", "complex", { subAttributes: [attr("givenName", "string"), attr("familyName", "string"), attr("formatted", "string", { mutability: "readOnly" })] }),
        attr("displayName", "string"),
        multi("emails"),
        multi("phoneNumbers"),
        attr("active", "boolean"),
        attr("externalId", "string", { caseExact: true }),
      ],
      meta: { resourceType: "Schema", location: `${base}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      id: GROUP_SCHEMA,
      name: "Group",
      attributes: [
        attr("displayName", "string", { required: true, uniqueness: "server" }),
        attr("members", "complex", {
          multiValued: true,
          subAttributes: [attr("value", "string", { mutability: "immutable" }), attr("display", "string", { mutability: "readOnly" })],
        }),
        attr("externalId", "string", { caseExact: true }),
      ],
      meta: { resourceType: "Schema", location: `${base}/Schemas/${GROUP_SCHEMA}` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      id: CUSTOM_FIELDS_SCHEMA,
      name: "CustomFields",
      description: "The company's custom user fields, each named by its key",
      attributes: extensionAttributes(fields),
      meta: { resourceType: "Schema", location: `${base}/Schemas/${CUSTOM_FIELDS_SCHEMA}` },
    },
  ];
}
