/** What the service supports (RFC 7643 §5–7): ServiceProviderConfig, ResourceTypes and Schemas. */
import { MAX_RESULTS } from "./call.server";
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

export function resourceTypes(base: string) {
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "User",
      name: "User",
      endpoint: "/Users",
      schema: USER_SCHEMA,
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

export function schemas(base: string) {
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
  ];
}
