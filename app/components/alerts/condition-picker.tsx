import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/field";
import { MultiSelectChips, type ChipOption } from "~/components/ui/multi-select-chips";
import type { ConditionField } from "~/schemas/alerts";

/** The chips' own words (remove, nothing found, searching) in the alerts' language. */
export function useChipTexts() {
  const { t } = useTranslation("alerts");
  return { remove: (label: string) => t("chips.remove", { label }), noResults: t("chips.noResults"), searching: t("chips.searching") };
}

type Props = {
  field: ConditionField;
  label: string;
  /** The "any" entry: the condition holds for every user or device. */
  any: ChipOption;
  /** Where the company's users or devices are searched. */
  searchUrl: string;
  error?: string;
  value: ChipOption[];
  onChange: (next: ChipOption[]) => void;
};

/** One of the alert's condition pickers: the chosen users or devices (or "any") as chips, posted as repeated fields. */
export function ConditionPicker({ field, label, any, searchUrl, error, value, onChange }: Props) {
  const { t } = useTranslation("alerts");
  const texts = useChipTexts();
  return (
    <Field label={label} error={error} required hint={t("chips.hint")}>
      <MultiSelectChips name={field} value={value} onChange={onChange} searchUrl={searchUrl} pinned={any} texts={{ ...texts, placeholder: t("chips.search") }} />
    </Field>
  );
}
