import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { PhoneFields, TextFields } from "~/components/forms/bound-fields";
import { CountryPicker } from "~/components/phone-field/country-picker";
import { OptionSelect } from "~/components/select-field";
import { countryDefaults } from "~/utils/country-defaults";
import { pickerRegion } from "~/utils/phone";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Switch } from "~/components/ui/switch";
import { allowedParentTypes, COMPANY_TYPES, companyCreateSchema, companyUpdateSchema, defaultDiscount, DISCOUNTS, generateCompanyCode } from "~/schemas/companies";
import { usePageForm } from "~/components/forms/use-page-form";

export type CompanyFormValues = {
  companyType: string;
  parentCompanyId: string;
  discountPercentage: string;
  nextBillingDate: string;
  companyName: string;
  POCFirstName: string;
  POCLastName: string;
  POCEmail: string;
  POCCountryCode: string;
  POCPhoneNumber: string;
  companyId: string;
  isDeactive: boolean;
  /** A new company's settings (decision 0055): zone (IANA name), default phone country (region) and mail language. */
  timeZone?: string;
  country?: string;
  language?: "en" | "es";
};

/** The settings fields a person changed by hand: the contact phone's country no longer overwrites them. */
type SetupKey = "timeZone" | "country" | "language";

export type ParentChoice = { name: string; code: string; type: string };

export const emptyCompany = (code: string): CompanyFormValues => ({
  companyType: "",
  parentCompanyId: "",
  discountPercentage: "",
  nextBillingDate: "",
  companyName: "",
  POCFirstName: "",
  POCLastName: "",
  POCEmail: "",
  POCCountryCode: "001",
  POCPhoneNumber: "",
  companyId: code,
  isDeactive: false,
  ...setupFor("US"),
});

/** A new company's settings as the contact phone's country suggests them (country-defaults.ts). */
function setupFor(region: string | undefined): Pick<CompanyFormValues, SetupKey> {
  const d = countryDefaults(region);
  return { timeZone: d?.timeZone ?? "", country: d?.region ?? "", language: d?.language ?? "en" };
}

const TEXT_FIELDS = ["companyName", "POCFirstName", "POCLastName", "POCEmail"] as const;

/**
 * "Create a Company" / "Modify a Company" (spec part 2 §2, §4, §5). On modify the type, parent and
 * code are locked. Changing the type resets the discount to the type's default and clears a
 * parent whose type the new type does not allow.
 */
export function CompanyForm({
  mode,
  initial,
  parents,
  zones = [],
  id,
}: {
  mode: "add" | "modify";
  initial: CompanyFormValues;
  parents: ParentChoice[];
  /** The time-zone picker's choices (add only). */
  zones?: { name: string; label: string }[];
  /** The company being modified (the action takes it from the URL; the browser check needs one). */
  id?: number;
}) {
  const locked = mode === "modify";
  const { fields, err, formError, formProps, t } = usePageForm({
    id: `company-${mode}`,
    schema: locked ? companyUpdateSchema : companyCreateSchema,
    ns: "companies",
  });
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const [values, setValues] = useState(initial);
  useEffect(() => setValues(initial), [initial]);

  const [touched, setTouched] = useState<ReadonlySet<SetupKey>>(new Set());
  const set = <K extends keyof CompanyFormValues>(key: K, value: CompanyFormValues[K]) =>
    setValues((v) => {
      if (key !== "POCCountryCode" || locked) return { ...v, [key]: value };
      // The contact phone's country suggests the zone, country and language the person has not chosen.
      const suggested = setupFor(String(value));
      const untouched = Object.fromEntries((Object.keys(suggested) as SetupKey[]).filter((k) => !touched.has(k)).map((k) => [k, suggested[k]]));
      return { ...v, ...untouched, [key]: value };
    });
  const choose = <K extends SetupKey>(key: K, value: CompanyFormValues[K]) => {
    setTouched((s) => new Set(s).add(key));
    setValues((v) => ({ ...v, [key]: value }));
  };

  const changeType = (type: string) =>
    setValues((v) => {
      const parent = parents.find((p) => p.code === v.parentCompanyId);
      const keepParent = parent && allowedParentTypes(type).includes(parent.type);
      return { ...v, companyType: type, parentCompanyId: keepParent ? v.parentCompanyId : "", discountPercentage: type ? String(defaultDiscount(type)) : "" };
    });

  const error = (k: keyof CompanyFormValues) => err(fields[k]);
  const bound = { values, set, label: (k: string) => t(k), error };
  const parentChoices = parents.filter((p) => allowedParentTypes(values.companyType).includes(p.type));
  const parentLabel = (p: ParentChoice) => `${p.name} (${p.code}) - ${p.type.toUpperCase()}`;

  return (
    <Form method="post" {...formProps} className="grid max-w-3xl gap-6" aria-label={t(locked ? "modifyTitle" : "addTitle")}>
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      {id != null && <input type="hidden" name="id" value={id} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("companyType")} error={error("companyType")} required>
          <NativeSelect id="company-companyType" name="companyType" value={values.companyType} disabled={locked} onChange={(e) => changeType(e.target.value)}>
            <option value="">{t("choose")}</option>
            {COMPANY_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`type.${type}`)}
              </option>
            ))}
            {locked && values.companyType === "root" && <option value="root">{t("type.root")}</option>}
          </NativeSelect>
        </Field>
        <Field label={t("parentCompany")} error={error("parentCompanyId")} required={!locked}>
          {locked ? (
            <Input id="company-parentCompanyId" value={initial.parentCompanyId} disabled readOnly />
          ) : (
            <NativeSelect
              id="company-parentCompanyId"
              name="parentCompanyId"
              value={values.parentCompanyId}
              disabled={!values.companyType}
              onChange={(e) => set("parentCompanyId", e.target.value)}
              options={parentChoices.map((p) => ({ value: p.code, label: parentLabel(p) }))}
            >
              <option value="">{t("choose")}</option>
            </NativeSelect>
          )}
        </Field>
        <Field label={t("discount")} error={error("discountPercentage")} required>
          <NativeSelect id="company-discountPercentage" name="discountPercentage" value={values.discountPercentage} onChange={(e) => set("discountPercentage", e.target.value)}>
            <option value="">{t("choose")}</option>
            {DISCOUNTS.map((d) => (
              <option key={d.value} value={String(d.value)}>
                {`${d.value}% (${t(`discount.${d.value}`, { defaultValue: d.label })})`}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={t("nextBillingDate")} error={error("nextBillingDate")} hint={locked ? t("nextBillingDateHint") : undefined}>
          <Input
            id="company-nextBillingDate"
            name="nextBillingDate"
            type="date"
            value={values.nextBillingDate}
            readOnly={locked}
            onChange={(e) => set("nextBillingDate", e.target.value)}
          />
        </Field>
        <TextFields idPrefix="company" keys={TEXT_FIELDS} email="POCEmail" wide={["companyName"]} {...bound} />
        <PhoneFields idPrefix="company" country="POCCountryCode" phone="POCPhoneNumber" region={pickerRegion(values.POCCountryCode)} {...bound} />
        <div className="flex items-start gap-2">
          <Field label={t("companyId")} error={error("companyId")} required hint={locked ? undefined : t("companyIdHint")} className="flex-1">
            <Input id="company-companyId" name="companyId" value={values.companyId} readOnly className="font-mono uppercase" />
          </Field>
          {!locked && (
            <Button type="button" variant="outline" onClick={() => set("companyId", generateCompanyCode())} data-testid="generate-code" className="mt-[26px]">
              {t("generate")}
            </Button>
          )}
        </div>
        {!locked && (
          <fieldset className="grid gap-4 rounded-lg border p-4 sm:col-span-2 sm:grid-cols-3">
            <legend className="px-1 text-sm font-medium">{t("setupTitle")}</legend>
            <p className="text-sm text-muted-foreground sm:col-span-3">{t("setupHint")}</p>
            <Field label={t("timeZone")} error={err(fields.timeZone)} required>
              <OptionSelect
                id="company-timeZone"
                name="timeZone"
                blank={t("choose")}
                value={values.timeZone}
                onChange={(e) => choose("timeZone", e.target.value)}
                options={zones.map((z) => ({ value: z.name, label: z.label }))}
              />
            </Field>
            <Field label={t("country")} error={err(fields.country)} required>
              <CountryPicker name="country" region={values.country || undefined} onChange={(r) => choose("country", r)} />
            </Field>
            <Field label={t("language")} error={err(fields.language)} required>
              <NativeSelect id="company-language" name="language" value={values.language} onChange={(e) => choose("language", e.target.value as "en" | "es")}>
                <option value="en">English</option>
                <option value="es">Español</option>
              </NativeSelect>
            </Field>
          </fieldset>
        )}
        <Field label={t("deactivate")} orientation="horizontal" hint={t("deactivateHint")}>
          <Switch id="company-isDeactive" checked={values.isDeactive} onCheckedChange={(on) => set("isDeactive", on)} />
        </Field>
        <input type="hidden" name="isDeactive" value={values.isDeactive ? "1" : "0"} />
        {locked && <input type="hidden" name="companyType" value={values.companyType} />}
      </div>
      <div>
        <Button type="submit" name="intent" value="save" disabled={saving}>
          {saving ? t("saving") : t(locked ? "saveModify" : "saveAdd")}
        </Button>
      </div>
    </Form>
  );
}
