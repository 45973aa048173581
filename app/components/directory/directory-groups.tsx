import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import type { DirectoryGroupRow } from "~/services/scim-links.server";

type Options = { roles: { id: number; title: string }[]; deviceGroups: { id: number; fullName: string }[] };

/**
 * The groups the directory pushed and what joining each grants: a role and/or keys to device groups.
 * Saving applies to the present members at once (the server withdraws what the old link gave).
 */
export function DirectoryGroups({ groups, options }: { groups: DirectoryGroupRow[]; options: Options }) {
  const { t } = useTranslation("directory");
  const navigation = useNavigation();
  if (!groups.length) return <p className="text-sm text-muted-foreground">{t("noGroups")}</p>;
  return (
    <ul className="grid gap-3">
      {groups.map((g) => (
        <li key={g.id} className="rounded-md border p-4" data-testid={`directory-group-${g.id}`}>
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value="link" />
            <input type="hidden" name="groupId" value={g.id} />
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="font-medium">{g.displayName}</h3>
              <span className="text-sm text-muted-foreground">{t("members", { count: g.members })}</span>
            </div>
            <Field label={t("role")} className="max-w-sm">
              <NativeSelect id={`directory-group-${g.id}-role`} name="roleId" defaultValue={g.role?.id ?? ""} options={options.roles.map((r) => ({ value: r.id, label: r.title }))}>
                <option value="">{t("noRole")}</option>
              </NativeSelect>
            </Field>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">{t("deviceGroups")}</legend>
              {options.deviceGroups.map((d) => (
                <div key={d.id} className="flex items-center gap-2">
                  <Checkbox id={`directory-group-${g.id}-dg-${d.id}`} name="deviceGroupIds" value={String(d.id)} defaultChecked={g.deviceGroups.some((x) => x.id === d.id)} />
                  <Label htmlFor={`directory-group-${g.id}-dg-${d.id}`}>{d.fullName}</Label>
                </div>
              ))}
            </fieldset>
            <div>
              <Button type="submit" variant="outline" disabled={navigation.state === "submitting"}>
                {t("saveLink")}
              </Button>
            </div>
          </Form>
        </li>
      ))}
    </ul>
  );
}
