import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/field";
import { SearchPicker, type PickerOption, type PickerSource } from "~/components/ui/search-picker";
import type { ConditionField } from "~/schemas/alerts";

/** The alert pickers' own words (placeholder and list name, remove, nothing found, searching) in the alerts' language. */
export function useChipTexts() {
  const { t } = useTranslation("alerts");
  return (placeholder: string) => ({
    placeholder,
    list: placeholder,
    remove: (label: string) => t("chips.remove", { label }),
    noMatch: t("chips.noResults"),
    searching: t("chips.searching"),
  });
}

/** The company's users or devices, searched on the server (resources.alert-pickers), 20 at a time. */
export function alertPickerSource(kind: "users" | "devices"): PickerSource {
  return {
    url: `/resources/alert-pickers?kind=${kind}`,
    read: (body) => (body as { items: { id: number; label: string; detail?: string }[] }).items.map((x) => ({ value: String(x.id), label: x.label, detail: x.detail })),
  };
}

type Props = {
  field: ConditionField;
  label: string;
  /** The "any" entry: the condition holds for every user or device. */
  any: PickerOption;
  /** Where the company's users or devices are searched. */
  source: PickerSource;
  error?: string;
  value: PickerOption[];
  onChange: (next: PickerOption[]) => void;
};

/** One of the alert's condition pickers: the chosen users or devices (or "any") as chips, posted as repeated fields. */
export function ConditionPicker({ field, label, any, source, error, value, onChange }: Props) {
  const { t } = useTranslation("alerts");
  const texts = useChipTexts();
  return (
    <Field label={label} error={error} required hint={t("chips.hint")}>
      <SearchPicker name={field} multiple keepEnter value={value} onChange={onChange} source={source} pinned={any} texts={texts(t("chips.search"))} />
    </Field>
  );
}
